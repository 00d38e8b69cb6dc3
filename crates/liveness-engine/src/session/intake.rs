//! The gate every frame passes before analysis: timestamp order, session length, sampling to
//! the analysis rate, the size limit, byte-identical repeats, and the count of refused frames.
//! It also keeps the stream timing the injection layer reads.

use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::config::LivenessConfig;
use crate::events::Guidance;
use crate::layers::injection::StreamTiming;

/// Recent frame hashes kept to spot byte-identical repeats.
const RECENT_HASHES: usize = 64;
/// Smallest capture-time gap between two frames read while a short action is watched
/// (about 30 fps).
pub(super) const WATCH_INTERVAL_MS: u64 = 30;

/// What to do with one incoming frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Admission {
    /// Decode and analyse it.
    Analyse,
    /// Too close to the last analysed frame: drop it undecoded, say nothing.
    SampledOut,
    /// Too close to the last analysed frame, but a short action is being watched: read only
    /// what the challenge needs from it.
    Watch,
    /// Refused with this guidance (counted toward `max_invalid_frames`).
    Refused(Guidance),
    /// The session has run for longer than `max_session_ms`.
    SessionOver,
}

#[derive(Debug, Default)]
pub(super) struct FrameIntake {
    pub(super) timing: StreamTiming,
    recent_hashes: VecDeque<u64>,
    pub(super) first_timestamp: Option<u64>,
    last_timestamp: Option<u64>,
    last_analysed: Option<u64>,
    last_watched: Option<u64>,
    invalid_frames: u32,
}

impl FrameIntake {
    /// `watching`: a short action is asked, so frames between the analysed ones are read too.
    pub(super) fn admit(
        &mut self,
        config: &LivenessConfig,
        jpeg: &[u8],
        t: u64,
        watching: bool,
    ) -> Admission {
        self.timing.received = self.timing.received.saturating_add(1);
        if self.last_timestamp.is_some_and(|last| t <= last) {
            self.timing.out_of_order += 1;
            return Admission::Refused(Guidance::FrameOutOfOrder);
        }
        self.last_timestamp = Some(t);
        let start = *self.first_timestamp.get_or_insert(t);
        if t - start > config.max_session_ms {
            return Admission::SessionOver;
        }
        if self
            .last_analysed
            .is_some_and(|last| t - last < config.min_frame_interval_ms())
        {
            let watch_due = self
                .last_watched
                .is_none_or(|last| t - last >= WATCH_INTERVAL_MS);
            if watching && watch_due && jpeg.len() <= config.max_frame_bytes {
                self.last_watched = Some(t);
                return Admission::Watch;
            }
            return Admission::SampledOut;
        }
        if jpeg.len() > config.max_frame_bytes {
            return Admission::Refused(Guidance::InvalidFrame);
        }
        self.note_repeats(jpeg);
        Admission::Analyse
    }

    /// Records that the frame at `t` decoded and was analysed (sampling counts from it).
    pub(super) fn mark_analysed(&mut self, t: u64) {
        self.last_analysed = Some(t);
        self.last_watched = Some(t);
    }

    /// Whether a frame was analysed less than `gap_ms` of capture time before `t`.
    pub(super) fn analysed_within(&self, t: u64, gap_ms: u64) -> bool {
        self.last_analysed
            .is_some_and(|last| t.saturating_sub(last) < gap_ms)
    }

    /// Counts a refused frame; `true` once the session has seen too many.
    pub(super) fn count_invalid(&mut self, config: &LivenessConfig) -> bool {
        self.invalid_frames += 1;
        self.invalid_frames >= config.max_invalid_frames
    }

    fn note_repeats(&mut self, jpeg: &[u8]) {
        let mut hasher = DefaultHasher::new();
        jpeg.hash(&mut hasher);
        let hash = hasher.finish();
        if self.recent_hashes.contains(&hash) {
            self.timing.repeated_bytes += 1;
        }
        if self.recent_hashes.len() == RECENT_HASHES {
            self.recent_hashes.pop_front();
        }
        self.recent_hashes.push_back(hash);
    }
}
