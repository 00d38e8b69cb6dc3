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
//! check, which needs the colours' steps resolved, can only say `retry`. When the lane is full,
//! it thins itself evenly (it lets go of the frame whose neighbours are closest in time) rather
//! than refusing the newer frames: a worker that comes back late still finds the whole interval
//! covered, every colour step sampled, instead of its first half only.
//!
//! A second lane, bounded alike, follows the colours: frames replaced in the first
//! [`MODEL_LANE_MS`] after the camera settles are set aside for the anti-spoof model, which the
//! worker runs on them alone in the last key frame's face box. The passive hold waits for ten
//! faces the model judged, and the model skips every frame the colours may tint; without this
//! lane a loaded server found those faces one a take, and the hold fell back on five spread
//! over two seconds (issue 42: the verdict waited on the server, not on the evidence).

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::{LivenessSession, SessionMode};

/// Most replaced frames set aside for the light check between two analyses: a second of a
/// 15 fps camera, so a server that analyses each session about once a second still samples
/// every colour step (each lasts 340–400 ms).
pub const LIGHT_LANE_FRAMES: usize = 16;
/// Most bytes of replaced frames set aside (typical 640×480 frames are 30–80 KB).
pub const LIGHT_LANE_BYTES: usize = 1_000_000;
/// Capture time, from the end of the camera's settling after the colours, whose replaced
/// frames are set aside for the anti-spoof model: the hold's ten model-judged faces at the
/// analysis rate (10 a second; 7.5 of a 15 fps camera, every other frame), and a little more.
pub const MODEL_LANE_MS: u64 = 1_500;

/// The capture times of the model lane that starts at `from` (the end of the camera's
/// settling after the colours, `LivenessSession::model_window_start_ms`).
pub fn model_lane(from: u64) -> Range<u64> {
    from..from + MODEL_LANE_MS
}

/// A frame waiting for analysis, with its capture timestamp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingFrame {
    pub jpeg: Vec<u8>,
    pub timestamp_ms: u64,
}

/// What a worker takes out: the newest frame, and the frames it replaced in one of the lanes
/// (while the light was being measured, or in the model's first unlit frames), oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakenFrame {
    pub newest: PendingFrame,
    pub set_aside: Vec<PendingFrame>,
    /// Frames replaced since the last take, set aside or not: more than none means the
    /// server fell behind the session.
    pub replaced: usize,
}

/// The capture times whose replaced frames are set aside.
#[derive(Debug, Clone, Default)]
struct Lanes {
    /// Frames captured up to this session time, for the light check (0: none are).
    light_window_end_ms: u64,
    /// Frames captured in this span, for the anti-spoof model (empty: none are).
    model: Range<u64>,
}

impl Lanes {
    fn cover(&self, timestamp_ms: u64) -> bool {
        timestamp_ms <= self.light_window_end_ms || self.model.contains(&timestamp_ms)
    }
}

#[derive(Debug, Default)]
struct Slot {
    newest: Option<PendingFrame>,
    set_aside: Vec<PendingFrame>,
    replaced: usize,
}

impl Slot {
    /// Sets `frame` (the newest replaced, so the lane stays in capture order) aside if one of
    /// `lanes` covers its capture time; when that passes the bounds, thins the lane evenly until
    /// it fits again.
    fn set_aside(&mut self, frame: PendingFrame, lanes: &Lanes) {
        if !lanes.cover(frame.timestamp_ms) || frame.jpeg.len() > LIGHT_LANE_BYTES {
            return;
        }
        self.set_aside.push(frame);
        let mut bytes: usize = self.set_aside.iter().map(|f| f.jpeg.len()).sum();
        while self.set_aside.len() > LIGHT_LANE_FRAMES || bytes > LIGHT_LANE_BYTES {
            bytes -= self.set_aside.remove(self.most_crowded()).jpeg.len();
        }
    }

    /// The set-aside frame whose removal leaves the shortest gap between its neighbours (the
    /// earliest on a tie); the first and the last frame stay, so the lane keeps its span. With
    /// one or two frames, the oldest.
    fn most_crowded(&self) -> usize {
        let lane = &self.set_aside;
        (1..lane.len().saturating_sub(1))
            .min_by_key(|&i| lane[i + 1].timestamp_ms - lane[i - 1].timestamp_ms)
            .unwrap_or(0)
    }
}

#[derive(Debug, Default)]
pub struct LatestFrame {
    slot: Mutex<Slot>,
    lanes: Lanes,
    dropped: AtomicU64,
}

impl LatestFrame {
    /// A mailbox for a session without a light check.
    pub fn new() -> Self {
        Self::default()
    }

    /// The mailbox for `session`: it sets replaced frames aside while the session's light
    /// sequence is shown, and, in passive mode (where the hold waits for the model's faces),
    /// for [`MODEL_LANE_MS`] once the camera has settled after it; it drops them as
    /// [`Self::new`] does when the session shows no sequence.
    pub fn for_session(session: &LivenessSession) -> Self {
        let model_from = session
            .model_window_start_ms()
            .filter(|_| session.mode() == SessionMode::Passive);
        session.illumination().map_or_else(Self::new, |sequence| {
            Self::with_lanes(sequence.window_end_ms(), model_from)
        })
    }

    /// A mailbox that sets replaced frames aside for the light check until session time
    /// `light_window_end_ms`, and for the anti-spoof model from `model_from_ms` (if any) for
    /// [`MODEL_LANE_MS`].
    pub fn with_lanes(light_window_end_ms: u64, model_from_ms: Option<u64>) -> Self {
        Self {
            lanes: Lanes {
                light_window_end_ms,
                model: model_from_ms.map_or(0..0, model_lane),
            },
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
        slot.replaced += 1;
        slot.set_aside(replaced, &self.lanes);
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
            set_aside: std::mem::take(&mut slot.set_aside),
            replaced: std::mem::take(&mut slot.replaced),
        })
    }

    /// Whether a frame waits to be taken.
    pub fn is_waiting(&self) -> bool {
        self.slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .newest
            .is_some()
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
        assert!(taken.set_aside.is_empty());
        assert_eq!(taken.replaced, 2);
        assert_eq!(mailbox.take(), None);
        assert_eq!(mailbox.dropped(), 2);
        mailbox.put(frame(4, 1));
        assert_eq!(mailbox.take().map(|t| t.replaced), Some(0));
    }

    #[test]
    fn frames_replaced_in_the_light_window_are_set_aside_within_bounds() {
        let mailbox = LatestFrame::with_lanes(100, None);
        for t in 0..10 {
            mailbox.put(frame(t, 10));
        }
        let taken = mailbox.take().expect("a frame waits");
        assert_eq!(taken.newest.timestamp_ms, 9);
        let kept: Vec<u64> = taken.set_aside.iter().map(|f| f.timestamp_ms).collect();
        assert_eq!(kept, (0..9).collect::<Vec<_>>());
        // after the window, replaced frames are dropped as before
        mailbox.put(frame(150, 10));
        mailbox.put(frame(160, 10));
        assert!(mailbox.take().expect("a frame waits").set_aside.is_empty());
        // and never more than the byte bound: the older frame makes room
        mailbox.put(frame(10, LIGHT_LANE_BYTES));
        mailbox.put(frame(11, 1));
        mailbox.put(frame(12, 1));
        let kept: Vec<u64> = mailbox
            .take()
            .expect("a frame waits")
            .set_aside
            .iter()
            .map(|f| f.timestamp_ms)
            .collect();
        assert_eq!(kept, vec![11]);
        assert_eq!(mailbox.dropped(), 12);
    }

    #[test]
    fn a_full_lane_thins_evenly_over_the_whole_interval() {
        // a worker that comes back after 39 replaced frames finds 16 spread over all of them,
        // not the first 16
        let mailbox = LatestFrame::with_lanes(1_000, None);
        for t in 0..40 {
            mailbox.put(frame(t * 10, 10));
        }
        let taken = mailbox.take().expect("a frame waits");
        let kept: Vec<u64> = taken.set_aside.iter().map(|f| f.timestamp_ms).collect();
        assert_eq!(kept.len(), LIGHT_LANE_FRAMES);
        assert_eq!((kept[0], kept[kept.len() - 1]), (0, 380));
        let even = 380.0 / (LIGHT_LANE_FRAMES - 1) as f64;
        for pair in kept.windows(2) {
            assert!(pair[0] < pair[1], "in capture order: {kept:?}");
            assert!(
                (pair[1] - pair[0]) as f64 <= 2.0 * even,
                "no long gap: {kept:?}"
            );
        }
    }

    #[test]
    fn frames_replaced_in_the_models_first_unlit_span_are_set_aside_and_no_others() {
        // the colours' window ends at 4 s, the camera settles by 5 s
        let mailbox = LatestFrame::with_lanes(4_000, Some(5_000));
        let kept = |mailbox: &LatestFrame| -> Vec<u64> {
            mailbox
                .take()
                .expect("a frame waits")
                .set_aside
                .iter()
                .map(|f| f.timestamp_ms)
                .collect()
        };
        // settling: the model skips these frames, and they are dropped
        for t in [4_100, 4_500, 4_900, 4_990] {
            mailbox.put(frame(t, 10));
        }
        assert!(kept(&mailbox).is_empty());
        for t in [5_000, 5_100, 6_000, 6_499, 6_500, 7_000] {
            mailbox.put(frame(t, 10));
        }
        assert_eq!(kept(&mailbox), vec![5_000, 5_100, 6_000, 6_499]);
        // past the lane, replaced frames are dropped again
        for t in [7_100, 7_200, 7_300] {
            mailbox.put(frame(t, 10));
        }
        assert!(kept(&mailbox).is_empty());
    }
}
