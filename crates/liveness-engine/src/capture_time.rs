//! A live frame's capture time, written by the client into the JPEG itself. The spec's frames
//! are bare JPEG binary messages, so the time travels inside the image as a JPEG comment
//! (a COM segment, marker `0xFFFE`) right after the start-of-image marker:
//! `facegate:capture_ms=<n>`, where `n` is whole milliseconds from the moment the client
//! received the stream's `ready` message to the moment it grabbed the frame from the camera.
//! Every JPEG decoder skips comments, so a stamped frame is still a plain JPEG.
//!
//! The stamp may end in `;camera=locked` or `;camera=auto` (issue 39): whether the client's
//! camera held its exposure and white balance fixed for this frame (the page asks for it with
//! `MediaStreamTrack.applyConstraints` while the colours are shown and reads back whether the
//! camera took it). A claim the server cannot check: the light check uses it only to let an
//! answer read without a room in view count as evidence, and no session passes on it.
//!
//! Why: the light check lines the face's colour up with the colours shown, step by step. A
//! frame stamped with its *arrival* carries the network's and both machines' scheduling
//! jitter (tens to hundreds of milliseconds on a loaded server or a phone's uplink), which
//! smears the steps. The capture time does not.
//!
//! Trust: the client chooses the stamp, so the server only takes it within what its own clock
//! allows ([`frame_time`]). The `ready` message is sent after the stream's clock starts, so an
//! honest stamp is never later than the frame's arrival ([`CLOCK_TOLERANCE_MS`] allows for
//! timer granularity); and it may precede the arrival by at most [`MAX_CAPTURE_LAG_MS`].
//! A stamp outside those bounds is moved to the nearest bound, so a lying client gains at most
//! that lag: the light's answer must still reach the server within
//! `MAX_OFFSET_MS + MAX_CAPTURE_LAG_MS` of the sequence's start. Frames without a stamp are
//! timed by their arrival, as before.

/// The comment's text before the decimal milliseconds.
pub const STAMP_PREFIX: &[u8] = b"facegate:capture_ms=";
/// Longest time a stamp may say a frame was captured before it arrived: a phone's encoding and
/// uplink, or a loaded server's scheduling.
pub const MAX_CAPTURE_LAG_MS: u64 = 400;
/// How far past its arrival a stamp may fall (timer granularity on either side).
pub const CLOCK_TOLERANCE_MS: u64 = 20;
/// Most decimal digits read (milliseconds within any session's lifetime).
const MAX_DIGITS: usize = 12;
/// The stamp's ending when the camera held its exposure and white balance.
pub const LOCKED_SUFFIX: &[u8] = b";camera=locked";
/// The stamp's ending when it did not (or the browser could not ask).
pub const AUTO_SUFFIX: &[u8] = b";camera=auto";

const SOI: [u8; 2] = [0xFF, 0xD8];
const COM: [u8; 2] = [0xFF, 0xFE];

/// `jpeg` with a `facegate:capture_ms=<capture_ms>` comment right after its start-of-image
/// marker, in place of a stamp already there; `jpeg` unchanged when it does not start with one.
pub fn stamp(jpeg: &[u8], capture_ms: u64) -> Vec<u8> {
    stamp_text(
        jpeg,
        &format!("{}{capture_ms}", String::from_utf8_lossy(STAMP_PREFIX)),
    )
}

/// [`stamp`] with the camera's lock said: `;camera=locked` or `;camera=auto` after the time.
pub fn stamp_with_lock(jpeg: &[u8], capture_ms: u64, locked: bool) -> Vec<u8> {
    let suffix = if locked { LOCKED_SUFFIX } else { AUTO_SUFFIX };
    let text = format!(
        "{}{capture_ms}{}",
        String::from_utf8_lossy(STAMP_PREFIX),
        String::from_utf8_lossy(suffix)
    );
    stamp_text(jpeg, &text)
}

fn stamp_text(jpeg: &[u8], text: &str) -> Vec<u8> {
    if !jpeg.starts_with(&SOI) {
        return jpeg.to_vec();
    }
    let jpeg = match stamp_segment(jpeg) {
        Some(segment) => &jpeg[segment.end..],
        None => &jpeg[2..],
    };
    // the segment's length counts its two length bytes and the text
    let length = (text.len() + 2) as u16;
    let mut out = Vec::with_capacity(jpeg.len() + text.len() + 4);
    out.extend_from_slice(&SOI);
    out.extend_from_slice(&COM);
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(jpeg);
    out
}

/// The capture time a client wrote into `jpeg` ([`stamp`]); `None` when the segment right
/// after the start-of-image marker is not such a comment (or is malformed).
pub fn read_stamp(jpeg: &[u8]) -> Option<u64> {
    stamp_segment(jpeg).map(|segment| segment.capture_ms)
}

/// Whether the client said its camera held exposure and white balance for `jpeg`
/// (`;camera=locked`); `false` without a stamp or with `;camera=auto`.
pub fn read_camera_lock(jpeg: &[u8]) -> bool {
    stamp_segment(jpeg).is_some_and(|segment| segment.camera_locked)
}

/// A stamp read from a frame.
struct StampSegment {
    capture_ms: u64,
    camera_locked: bool,
    /// Where the comment segment ends.
    end: usize,
}

/// The stamp right after the start-of-image marker and the offset where its comment segment
/// ends (start-of-image, comment marker, then the segment's length, which counts its own two
/// bytes); `None` when there is no well-formed stamp there.
fn stamp_segment(jpeg: &[u8]) -> Option<StampSegment> {
    let rest = jpeg.strip_prefix(&SOI)?.strip_prefix(&COM)?;
    let length = usize::from(u16::from_be_bytes([*rest.first()?, *rest.get(1)?]));
    let text = rest.get(2..length)?.strip_prefix(STAMP_PREFIX)?;
    let (digits, camera_locked) = if let Some(digits) = text.strip_suffix(LOCKED_SUFFIX) {
        (digits, true)
    } else {
        (text.strip_suffix(AUTO_SUFFIX).unwrap_or(text), false)
    };
    if digits.is_empty() || digits.len() > MAX_DIGITS || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(StampSegment {
        capture_ms: std::str::from_utf8(digits).ok()?.parse().ok()?,
        camera_locked,
        end: SOI.len() + COM.len() + length,
    })
}

/// The time the session analyses a frame at, in the stream's clock: its stamp when the client
/// wrote one, held within `arrival_ms − MAX_CAPTURE_LAG_MS ..= arrival_ms +
/// CLOCK_TOLERANCE_MS`, else its arrival; always after `previous_ms`, the time given to the
/// stream's previous frame (`None` for the first), so frames stay in order.
pub fn frame_time(stamp: Option<u64>, arrival_ms: u64, previous_ms: Option<u64>) -> u64 {
    let time = match stamp {
        Some(stamp) => stamp.clamp(
            arrival_ms.saturating_sub(MAX_CAPTURE_LAG_MS),
            arrival_ms + CLOCK_TOLERANCE_MS,
        ),
        None => arrival_ms,
    };
    match previous_ms {
        Some(previous) => time.max(previous + 1),
        None => time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal JPEG header: start of image, then an APP0 marker's first bytes.
    const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, b'J', b'F', b'I', b'F'];

    #[test]
    fn a_stamp_round_trips_and_keeps_the_image_a_jpeg() {
        let stamped = stamp(JPEG, 1_234);
        assert!(stamped.starts_with(&SOI));
        assert_eq!(&stamped[2..4], &COM);
        assert!(stamped.ends_with(&JPEG[2..]));
        assert_eq!(read_stamp(&stamped), Some(1_234));
        assert_eq!(read_stamp(JPEG), None);
        assert_eq!(stamp(b"not a jpeg", 5), b"not a jpeg".to_vec());
        // a second stamp replaces the first
        let restamped = stamp(&stamped, 56);
        assert_eq!(read_stamp(&restamped), Some(56));
        assert_eq!(restamped, stamp(JPEG, 56));
        // the camera's lock, said after the time
        let locked = stamp_with_lock(JPEG, 90, true);
        assert_eq!(
            (read_stamp(&locked), read_camera_lock(&locked)),
            (Some(90), true)
        );
        let auto = stamp_with_lock(&locked, 91, false);
        assert_eq!(
            (read_stamp(&auto), read_camera_lock(&auto)),
            (Some(91), false)
        );
        assert!(!read_camera_lock(&stamped));
        assert!(auto.ends_with(&JPEG[2..]));
    }

    #[test]
    fn malformed_comments_are_no_stamp() {
        let comment = |text: &[u8], length: u16| {
            let mut out = vec![0xFF, 0xD8, 0xFF, 0xFE];
            out.extend_from_slice(&length.to_be_bytes());
            out.extend_from_slice(text);
            out
        };
        let good = b"facegate:capture_ms=77";
        assert_eq!(read_stamp(&comment(good, 24)), Some(77));
        assert_eq!(read_stamp(&comment(good, 200)), None, "length past the end");
        assert_eq!(
            read_stamp(&comment(good, 1)),
            None,
            "length below its own bytes"
        );
        assert_eq!(read_stamp(&comment(b"facegate:capture_ms=", 22)), None);
        assert_eq!(read_stamp(&comment(b"facegate:capture_ms=-5", 24)), None);
        assert_eq!(read_stamp(&comment(b"facegate:capture_ms=1e3", 25)), None);
        assert_eq!(
            read_stamp(&comment(b"facegate:capture_ms=99999999999999999999", 42)),
            None
        );
        assert_eq!(read_stamp(&comment(b"other comment", 15)), None);
        assert_eq!(
            read_stamp(&comment(b"facegate:capture_ms=5;camera=maybe", 36)),
            None
        );
        assert_eq!(
            read_stamp(&comment(b"facegate:capture_ms=;camera=locked", 36)),
            None
        );
        assert_eq!(read_stamp(&[0xFF, 0xD8, 0xFF, 0xFE, 0x00]), None);
        assert_eq!(read_stamp(&[]), None);
    }

    #[test]
    fn a_stamp_is_held_within_the_servers_clock_and_in_order() {
        // an honest stamp, captured 120 ms before it arrived
        assert_eq!(frame_time(Some(880), 1_000, Some(700)), 880);
        // a stamp from the future is held to the arrival (plus the tolerance)
        assert_eq!(frame_time(Some(5_000), 1_000, None), 1_020);
        // a stamp from long ago is held to the longest lag
        assert_eq!(frame_time(Some(0), 1_000, None), 600);
        assert_eq!(frame_time(Some(0), 100, None), 0);
        // no stamp: the arrival
        assert_eq!(frame_time(None, 1_000, Some(400)), 1_000);
        // never at or before the previous frame's time
        assert_eq!(frame_time(Some(650), 1_000, Some(700)), 701);
        assert_eq!(frame_time(None, 1_000, Some(1_005)), 1_006);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_times_stay_in_bounds() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(2_929);
        let mut previous = None;
        for arrival in (0..20_000u64).step_by(7) {
            // a stamped header cut or corrupted at a random byte, or random bytes
            let mut bytes = stamp(JPEG, rng.random_range(0..100_000));
            let cut = rng.random_range(0..=bytes.len());
            bytes.truncate(cut);
            if rng.random_bool(0.5) && !bytes.is_empty() {
                let at = rng.random_range(0..bytes.len());
                bytes[at] = rng.random();
            }
            let time = frame_time(read_stamp(&bytes), arrival, previous);
            let floor = previous.map_or(0, |p: u64| p + 1);
            assert!(time >= floor, "{time} after {previous:?}");
            assert!(
                time <= (arrival + CLOCK_TOLERANCE_MS).max(floor),
                "{time} past arrival {arrival}"
            );
            previous = Some(time);
        }
    }
}
