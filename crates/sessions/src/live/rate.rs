//! The frame rate a connection may send (issue 67: a client that sends frames faster than the
//! server can judge is slowed by the protocol, never failed). `ready` tells the client
//! [`MAX_FPS`]; a frame past it is set aside unread (no capture time read, never in the
//! mailbox, counted by `facegate_session_frames_over_rate_total`) and the client is told
//! `slow_down` at most once a [`NOTICE_EVERY_MS`]. The session goes on with the frames it took:
//! nothing a client sends too fast ends or fails it.
//!
//! A token bucket on arrival times: [`MAX_FPS`] tokens a second, at most [`BURST_FRAMES`] kept,
//! so a camera at the rate, or one catching up after a network stall, is never refused.

/// Most frames a second a connection may send (`ready`'s `max_fps`): 2.5 times the embedded
/// page's 12 fps and twice a 15 fps camera's, and the light check needs no more (each colour
/// step lasts 340–400 ms; the analysis takes at most `analysis_fps`, 10, of them).
pub const MAX_FPS: u32 = 30;
/// Frames a client may send at once beyond the rate: a second's worth, what a browser's
/// socket releases after a stall of the network.
pub const BURST_FRAMES: f64 = MAX_FPS as f64;
/// The client is told `slow_down` at most once in this many milliseconds.
pub const NOTICE_EVERY_MS: u64 = 1_000;

/// Whether a frame that arrived is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    Taken,
    /// Past the rate: set aside unread; `tell_client` when a `slow_down` is due.
    OverRate {
        tell_client: bool,
    },
}

/// One connection's bucket of frames.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FrameRate {
    tokens: f64,
    last_arrival_ms: u64,
    last_notice_ms: Option<u64>,
}

impl Default for FrameRate {
    fn default() -> Self {
        Self {
            tokens: BURST_FRAMES,
            last_arrival_ms: 0,
            last_notice_ms: None,
        }
    }
}

impl FrameRate {
    /// Admits a frame that arrived at `arrival_ms` (from the connection's opening; arrival
    /// times never go backwards, and one that did would add no tokens).
    pub(crate) fn admit(&mut self, arrival_ms: u64) -> Admission {
        let elapsed = arrival_ms.saturating_sub(self.last_arrival_ms);
        self.last_arrival_ms = self.last_arrival_ms.max(arrival_ms);
        let refill = elapsed as f64 * f64::from(MAX_FPS) / 1_000.0;
        self.tokens = (self.tokens + refill).min(BURST_FRAMES);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Admission::Taken;
        }
        let tell_client = self
            .last_notice_ms
            .is_none_or(|told| arrival_ms >= told + NOTICE_EVERY_MS);
        if tell_client {
            self.last_notice_ms = Some(arrival_ms);
        }
        Admission::OverRate { tell_client }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Admits `frames` frames `gap_ms` apart from `from_ms` on; returns how many were taken and
    /// how many notices were due.
    fn stream(rate: &mut FrameRate, from_ms: u64, gap_ms: u64, frames: u64) -> (u64, u64) {
        let (mut taken, mut notices) = (0, 0);
        for k in 0..frames {
            match rate.admit(from_ms + k * gap_ms) {
                Admission::Taken => taken += 1,
                Admission::OverRate { tell_client } => notices += u64::from(tell_client),
            }
        }
        (taken, notices)
    }

    #[test]
    fn a_camera_at_the_rate_or_below_is_never_refused() {
        for gap_ms in [34, 67, 83, 1_000] {
            let mut rate = FrameRate::default();
            let frames = 600;
            assert_eq!(
                stream(&mut rate, 0, gap_ms, frames),
                (frames, 0),
                "{gap_ms} ms"
            );
        }
    }

    #[test]
    fn a_burst_of_a_second_is_taken_whole_and_the_rest_of_a_flood_at_the_rate() {
        let mut rate = FrameRate::default();
        // 300 frames at once: the burst is taken, the rest refused, one notice
        assert_eq!(stream(&mut rate, 0, 0, 300), (30, 1));
        // then 200 fps for 10 s: 30 a second taken, a notice a second
        let (taken, notices) = stream(&mut rate, 5, 5, 2_000);
        assert!((299..=301).contains(&taken), "{taken}");
        assert!((9..=10).contains(&notices), "{notices}");
    }

    #[test]
    fn a_client_that_slows_down_is_taken_again_after_a_short_wait() {
        let mut rate = FrameRate::default();
        stream(&mut rate, 0, 0, 100);
        assert_eq!(rate.admit(10), Admission::OverRate { tell_client: false });
        // 34 ms later one token has come back
        assert_eq!(rate.admit(44), Admission::Taken);
        assert_eq!(stream(&mut rate, 100, 67, 300), (300, 0));
    }

    #[test]
    fn an_arrival_time_that_goes_back_adds_nothing() {
        let mut rate = FrameRate::default();
        stream(&mut rate, 5_000, 0, 30);
        assert!(matches!(rate.admit(1_000), Admission::OverRate { .. }));
        assert!(matches!(rate.admit(5_000), Admission::OverRate { .. }));
        assert_eq!(rate.admit(5_034), Admission::Taken);
    }
}
