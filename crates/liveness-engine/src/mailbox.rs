//! Keeping up under load: a one-frame mailbox per session. The socket side puts the newest
//! frame in, replacing one not yet analysed (counted as dropped); a worker takes it out when it
//! is free. Nothing queues for analysis, so a slow machine or a flooding client costs at most
//! one frame per session and the analysis always works on the freshest frame.
//!
//! One exception, bounded: while the screen's colours light the face, the light check wants
//! every frame, and reading one costs a decode and a few region means, no inference. So frames
//! replaced during that window are set aside (at most [`LIGHT_LANE_FRAMES`] of them and
//! [`LIGHT_LANE_BYTES`] in all) for the worker to sample before it analyses the newest one.
//! Without this, a loaded server analyses a frame every few hundred milliseconds and the light
//! check, which needs the colours' steps resolved, can only say `retry`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::LivenessSession;

/// Most replaced frames set aside for the light check between two analyses.
pub const LIGHT_LANE_FRAMES: usize = 8;
/// Most bytes of replaced frames set aside (typical 640×480 frames are 30–80 KB).
pub const LIGHT_LANE_BYTES: usize = 1_000_000;

/// A frame waiting for analysis, with its capture timestamp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingFrame {
    pub jpeg: Vec<u8>,
    pub timestamp_ms: u64,
}

/// What a worker takes out: the newest frame, and the frames it replaced while the light was
/// being measured, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakenFrame {
    pub newest: PendingFrame,
    pub light_only: Vec<PendingFrame>,
}

#[derive(Debug, Default)]
struct Slot {
    newest: Option<PendingFrame>,
    light_only: Vec<PendingFrame>,
}

impl Slot {
    /// Sets `frame` aside for the light check if it was captured by `window_end_ms` and fits
    /// the bounds; drops it otherwise.
    fn set_aside(&mut self, frame: PendingFrame, window_end_ms: u64) {
        let bytes: usize = self.light_only.iter().map(|f| f.jpeg.len()).sum();
        if frame.timestamp_ms <= window_end_ms
            && self.light_only.len() < LIGHT_LANE_FRAMES
            && bytes + frame.jpeg.len() <= LIGHT_LANE_BYTES
        {
            self.light_only.push(frame);
        }
    }
}

#[derive(Debug, Default)]
pub struct LatestFrame {
    slot: Mutex<Slot>,
    /// Frames captured up to this session time are set aside when replaced (0: none are).
    light_window_end_ms: u64,
    dropped: AtomicU64,
}

impl LatestFrame {
    /// A mailbox for a session without a light check.
    pub fn new() -> Self {
        Self::default()
    }

    /// The mailbox for `session`: it sets replaced frames aside while the session's light
    /// sequence is shown, and drops them as [`Self::new`] does when it shows none.
    pub fn for_session(session: &LivenessSession) -> Self {
        session.illumination().map_or_else(Self::new, |sequence| {
            Self::with_light_window(sequence.window_end_ms())
        })
    }

    /// A mailbox that sets replaced frames aside for the light check until session time
    /// `window_end_ms`.
    pub fn with_light_window(window_end_ms: u64) -> Self {
        Self {
            light_window_end_ms: window_end_ms,
            ..Self::default()
        }
    }

    /// Stores `frame`; returns `true` when it replaced a frame that was never analysed.
    pub fn put(&self, frame: PendingFrame) -> bool {
        let mut slot = self
            .slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(replaced) = slot.newest.replace(frame) else {
            return false;
        };
        self.dropped.fetch_add(1, Ordering::Relaxed);
        slot.set_aside(replaced, self.light_window_end_ms);
        true
    }

    /// The newest frame, if one arrived since the last call, with the frames set aside.
    pub fn take(&self) -> Option<TakenFrame> {
        let mut slot = self
            .slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let newest = slot.newest.take()?;
        Some(TakenFrame {
            newest,
            light_only: std::mem::take(&mut slot.light_only),
        })
    }

    /// Returns a taken frame that another worker will analyse instead (it was scheduled while
    /// this one was taken). If a newer frame arrived meanwhile, the returned one is set aside
    /// for the light check with the rest, within the same bounds.
    pub fn put_back(&self, taken: TakenFrame) {
        let mut slot = self
            .slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // oldest first: the returned frames, then (if a newer frame waits) the returned
        // newest, then whatever was set aside meanwhile
        let newer = std::mem::replace(&mut slot.light_only, taken.light_only);
        if slot.newest.is_none() {
            slot.newest = Some(taken.newest);
        } else {
            slot.set_aside(taken.newest, self.light_window_end_ms);
        }
        for frame in newer {
            slot.set_aside(frame, self.light_window_end_ms);
        }
    }

    /// Frames replaced before they were analysed.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(t: u64, bytes: usize) -> PendingFrame {
        PendingFrame {
            jpeg: vec![t as u8; bytes],
            timestamp_ms: t,
        }
    }

    #[test]
    fn only_the_newest_frame_waits() {
        let mailbox = LatestFrame::new();
        assert!(!mailbox.put(frame(1, 1)));
        assert!(mailbox.put(frame(2, 1)));
        assert!(mailbox.put(frame(3, 1)));
        let taken = mailbox.take().expect("a frame waits");
        assert_eq!(taken.newest, frame(3, 1));
        assert!(taken.light_only.is_empty());
        assert_eq!(mailbox.take(), None);
        assert_eq!(mailbox.dropped(), 2);
    }

    #[test]
    fn frames_replaced_in_the_light_window_are_set_aside_within_bounds() {
        let mailbox = LatestFrame::with_light_window(100);
        for t in 0..20 {
            mailbox.put(frame(t, 10));
        }
        let taken = mailbox.take().expect("a frame waits");
        assert_eq!(taken.newest.timestamp_ms, 19);
        let kept: Vec<u64> = taken.light_only.iter().map(|f| f.timestamp_ms).collect();
        assert_eq!(kept, (0..LIGHT_LANE_FRAMES as u64).collect::<Vec<_>>());
        // after the window, replaced frames are dropped as before
        mailbox.put(frame(150, 10));
        mailbox.put(frame(160, 10));
        assert!(mailbox.take().expect("a frame waits").light_only.is_empty());
        // and never more than the byte bound
        mailbox.put(frame(10, LIGHT_LANE_BYTES));
        mailbox.put(frame(11, 1));
        mailbox.put(frame(12, 1));
        let kept: Vec<u64> = mailbox
            .take()
            .expect("a frame waits")
            .light_only
            .iter()
            .map(|f| f.timestamp_ms)
            .collect();
        assert_eq!(kept, vec![10]);
        assert_eq!(mailbox.dropped(), 22);
    }

    #[test]
    fn a_frame_put_back_waits_again_or_is_set_aside_when_a_newer_one_came() {
        let mailbox = LatestFrame::with_light_window(100);
        mailbox.put(frame(1, 1));
        mailbox.put(frame(2, 1));
        let taken = mailbox.take().expect("a frame waits");
        mailbox.put_back(taken.clone());
        assert_eq!(mailbox.take(), Some(taken.clone()));
        mailbox.put(frame(3, 1));
        mailbox.put_back(taken);
        let again = mailbox.take().expect("a frame waits");
        assert_eq!(again.newest.timestamp_ms, 3);
        let kept: Vec<u64> = again.light_only.iter().map(|f| f.timestamp_ms).collect();
        assert_eq!(kept, vec![1, 2]);
    }
}
