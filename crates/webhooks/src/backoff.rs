//! When to try a failed delivery again: exponential backoff with full jitter, capped per step,
//! over at least 24 hours, honouring a receiver's `Retry-After` within the same bounds.

use rand::Rng;

/// Base delays before attempt 2, 3, …: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h,
/// 9 h. Their sum (24 h 42 min 35 s) is the shortest retry window; jitter only lengthens it.
pub const SCHEDULE_SECONDS: [u64; 10] = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 32400];

/// Attempts in all (the first plus one per scheduled delay).
pub const MAX_ATTEMPTS: u32 = SCHEDULE_SECONDS.len() as u32 + 1;

/// Longest `Retry-After` honoured (a receiver cannot park a delivery for longer).
pub const MAX_RETRY_AFTER_SECONDS: u64 = 8 * 3600;

/// Milliseconds to wait after the `attempts`-th failed attempt (1-based), or `None` when the
/// schedule is spent. The wait is the scheduled delay plus up to 20 % random jitter, or the
/// receiver's `Retry-After` when that is longer (capped at [`MAX_RETRY_AFTER_SECONDS`]).
pub fn next_delay_ms(attempts: u32, retry_after_seconds: Option<u64>) -> Option<u64> {
    let base = *SCHEDULE_SECONDS.get(attempts.checked_sub(1)? as usize)?;
    let jitter = rand::rng().random_range(0..=base * 200);
    let scheduled = base * 1000 + jitter;
    let asked = retry_after_seconds.map_or(0, |s| s.min(MAX_RETRY_AFTER_SECONDS) * 1000);
    Some(scheduled.max(asked))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_spans_a_day_and_then_stops() {
        let total: u64 = SCHEDULE_SECONDS.iter().sum();
        assert!(total >= 24 * 3600, "{total} s");
        for attempt in 1..MAX_ATTEMPTS {
            let d = next_delay_ms(attempt, None).expect("scheduled");
            let base = SCHEDULE_SECONDS[attempt as usize - 1] * 1000;
            assert!(d >= base && d <= base + base / 5, "{attempt}: {d}");
        }
        assert_eq!(next_delay_ms(MAX_ATTEMPTS, None), None);
        assert_eq!(next_delay_ms(1, Some(60)), Some(60_000));
        assert!(
            next_delay_ms(1, Some(10 * 86_400)).expect("capped") <= MAX_RETRY_AFTER_SECONDS * 1000
        );
    }
}
