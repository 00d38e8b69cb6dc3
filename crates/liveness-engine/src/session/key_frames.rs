//! What a session does with a frame due for analysis when its server fell behind it (the
//! mailbox replaced frames before they were taken): it analyses a key frame at most every [`KEY_FRAME_GAP_MS`] of
//! capture time (the detector, the mesh and the models), and reads the due frames between
//! in the key frame's face box, carried over:
//! - while the colours show, for the light, and with `LivenessConfig::look_when_behind` (on
//!   by default) about one a colour step ([`COLOURED_JUDGEMENT_GAP_MS`]) by the anti-spoof
//!   model alone for the passive session's one look at the colours' end
//!   (`LivenessSession::early_look`): one decode for both; while the camera settles after
//!   them, not at all. Nothing else the flow does then waits on an analysis, and the hold
//!   waits for the colours to end. Without the model's faces under the colours a loaded
//!   session cannot look, and waits for the settling and ten unlit faces (issue 67: 32
//!   sessions on two Zen 4 cores at p95 6.9-7.1 s with the switch off, 5.5 s with it on).
//! - after the colours and the camera's settling, while the passive hold waits for faces the
//!   model judged, by the anti-spoof model alone: a decode and the one model, without the
//!   detector, the mesh and the embedding (5.7 ms against 12.9–20.9 ms for an analysis, one
//!   core, `benches/frame.rs`).
//!   The model's view is the box ×2.7, so a head that moved a little in under a second stays
//!   in it; the key frames keep checking that a face is there, and feed every other layer.
//!   The frames the mailbox set aside in its model lane (the first unlit frames after the
//!   settling) are judged the same way, at the analysis rate, until the hold has its
//!   [`MIN_MODEL_FACES`]: a loaded server gets the faces a session kept up with gets, from the
//!   same span of capture time, instead of one a take. Within the lane's span, a key frame of
//!   the camera's settling still counts as recent ([`LANE_KEY_FRAME_GAP_MS`]): every session
//!   reaches its lane at nearly the same time after the colours, so a key frame there is work
//!   on every loaded session's way to its verdict, and the model's view (the box ×2.7) holds a
//!   head that moved a little meanwhile.
//!
//! Issue 42: the models run at the rate the layers need, and that rate falls under load
//! without a layer losing its evidence. A session that is kept up with analyses every frame
//! due, and in-order replays (the accuracy sweeps) never take these turns.

use face_engine::Image;

use crate::events::{Guidance, LivenessEvent};
use crate::observation::CarriedBoxJudgement;

use super::flow::MIN_MODEL_FACES;
use super::light::CAMERA_SETTLE_MS;
use super::{LivenessSession, Phase};
use crate::config::SessionMode;
use crate::mailbox::{MODEL_LANE_MS, model_lane};

/// Capture time from one key frame of a session its server fell behind to the next: the
/// frames due between are read in the key frame's face box.
pub const KEY_FRAME_GAP_MS: u64 = 1_000;
/// Shortest capture time between two faces the anti-spoof model judges under the colours on
/// a server that fell behind the session, for the look at the colours' end: about one a
/// colour step (each lasts 340–400 ms), so the 11 steps and the delay searched give the look
/// its [`MIN_MODEL_FACES`] spread over the whole sequence at a third of the analysis rate's
/// model runs.
pub const COLOURED_JUDGEMENT_GAP_MS: u64 = 300;
/// Capture time within which a worker that fell behind a session comes back to it for the
/// anti-spoof model to judge the colours' frames for the look. The hold wants ten analysed
/// faces, or five over two seconds, before the session may end; a worker behind analyses one
/// key frame a take, so one that comes back later than this has its five only after the
/// camera's settling, where the session would look no sooner than it ends without a look
/// (measured in process, a take every 2 s: the look at 8 s, as the verdict without it), and
/// the model's runs under the colours would be spent for nothing. Above a key frame's gap, so
/// a worker back about once a second still judges them.
pub const WORKER_BACK_SOON_MS: u64 = KEY_FRAME_GAP_MS * 3 / 2;
/// [`KEY_FRAME_GAP_MS`] for the frames captured in the model lane's span (`crate::mailbox`):
/// long enough that a key frame of the camera's settling before it covers the whole lane.
pub const LANE_KEY_FRAME_GAP_MS: u64 = CAMERA_SETTLE_MS + MODEL_LANE_MS;

impl LivenessSession {
    /// Notes a take from the mailbox whose newest frame was captured at `t`: whether the
    /// worker came back within [`WORKER_BACK_SOON_MS`], and, while the sequence's window lasts,
    /// how long it stayed away ([`Self::take_gaps_under_colours_ms`]).
    pub(super) fn note_take(&mut self, t: u64) {
        if let Some(last) = self.last_take_ms {
            self.worker_back_soon = t < last + WORKER_BACK_SOON_MS;
            if self.illumination().is_some_and(|s| t <= s.window_end_ms()) {
                self.take_gaps_under_colours_ms.push(t.saturating_sub(last));
            }
        }
        self.last_take_ms = Some(t);
    }

    /// Tells the session whether its replica streams more sessions than it can judge faces
    /// under the colours for (the server's rule: `facegate_sessions`, `LOOK_SESSIONS_PER_THREAD`).
    /// While it does, a server behind the session spares the anti-spoof model under the colours
    /// as with `LivenessConfig::look_when_behind` off: past its capacity the model's runs there
    /// keep the worker away from every session, and the looks they were spent for fall short
    /// of their faces (issue 67: 64 sessions on two Zen 4 cores, docs/benchmarks.md). It only
    /// decides whether faces are judged for the look, never how a look or a verdict reads them.
    pub fn set_replica_crowded(&mut self, crowded: bool) {
        self.replica_crowded = crowded;
    }

    /// The capture time between the newest frames of consecutive takes from the mailbox that
    /// ended while the colours showed: how long the worker stayed away from the session there,
    /// which decides whether it judges faces for the look ([`WORKER_BACK_SOON_MS`]). Logged
    /// with each verdict; empty for a session never taken through the mailbox.
    pub fn take_gaps_under_colours_ms(&self) -> &[u64] {
        &self.take_gaps_under_colours_ms
    }

    /// Whether the frame at `t`, due for analysis on a server that fell behind, is sampled out
    /// down to the key frames (read for the light only while it is lit): the colours may still
    /// colour it (lit, or the camera settling back, when no light is left to read and the model
    /// skips it too), the flow waits on nothing but time (settling or holding, not a
    /// challenge), and the face box comes from a recent key frame.
    pub(super) fn coloured_turn(&self, t: u64) -> bool {
        self.coloured_by_sequence(t)
            && matches!(self.phase, Phase::Settling | Phase::Holding(_))
            && self.recent_key_frame(t)
    }

    /// Whether the frame at `t`, due for analysis on a server that fell behind, is judged by the
    /// anti-spoof model alone in the carried face box: the colours and the camera's settling
    /// are over, the passive hold waits, and the face box comes from a recent key frame.
    pub(super) fn model_only_turn(&self, t: u64) -> bool {
        self.light_check_shown()
            && !self.coloured_by_sequence(t)
            && matches!(self.phase, Phase::Holding(_))
            && self.recent_key_frame(t)
            && self.carried_box_judgements.len() < self.max_frames
    }

    /// Whether the frame at `t`, set aside by the mailbox's model lane (`crate::mailbox`), is
    /// judged by the anti-spoof model alone in the carried face box: as in
    /// [`Self::model_only_turn`], while the hold still waits for [`MIN_MODEL_FACES`], and no
    /// sooner after the last frame the model judged than the analysis rate allows, so the
    /// faces it gets are those a session kept up with gets.
    pub(super) fn set_aside_model_turn(&self, t: u64) -> bool {
        if !self.model_only_turn(t) {
            return false;
        }
        let (judged, last) = self
            .model_judged_times()
            .fold((0, None), |(n, last), at| (n + 1, last.max(Some(at))));
        judged < MIN_MODEL_FACES
            && last.is_none_or(|last| t >= last + self.config.min_frame_interval_ms())
    }

    /// Whether the frame at `t`, lit by the sequence on a server that fell behind the session,
    /// is judged by the anti-spoof model alone in the carried face box for the passive
    /// session's one look at the colours' end (`LivenessConfig::look_when_behind`): the replica
    /// is not crowded ([`Self::set_replica_crowded`]), the look is
    /// still to come, the worker came back within [`WORKER_BACK_SOON_MS`] of its last take, `t`
    /// lies in the sequence's window, the face box comes from a recent key frame, and no face
    /// judged under the colours lies within [`COLOURED_JUDGEMENT_GAP_MS`] of `t`.
    pub(super) fn coloured_model_turn(&self, t: u64) -> bool {
        self.config.look_when_behind
            && !self.replica_crowded
            && self.mode == SessionMode::Passive
            && matches!(self.look, super::ending::Look::NotDue)
            && self.worker_back_soon
            && self.illumination().is_some_and(|s| t <= s.window_end_ms())
            && self.recent_key_frame(t)
            && self.carried_box_judgements.len() < self.max_frames
            && self
                .model_times_under_colours()
                .all(|at| at.abs_diff(t) >= COLOURED_JUDGEMENT_GAP_MS)
    }

    /// Reads a frame the colours may light on a server behind the session (sampled out down
    /// to the key frames, or set aside by the mailbox's light lane: `from_backlog`): a light
    /// sample where one is due, and the anti-spoof model in the carried box where
    /// [`Self::coloured_model_turn`] says so, over one decode.
    pub(super) fn read_coloured(
        &mut self,
        jpeg: &[u8],
        t: u64,
        from_backlog: bool,
        events: &mut Vec<LivenessEvent>,
    ) {
        let light_due = self.light_sample_due(t);
        let model_due = self.coloured_model_turn(t);
        if !light_due && !model_due {
            return;
        }
        let Ok(image) = Image::decode_with_limit(jpeg, self.config.max_frame_pixels) else {
            if model_due {
                self.refuse(Guidance::InvalidFrame, events);
            }
            return;
        };
        if light_due {
            self.keep_light_sample(&image, jpeg, t, from_backlog);
        }
        if model_due {
            self.judge_image_in_carried_box(&image, t, events);
        }
    }

    /// Whether a face box was found on a frame analysed less than [`KEY_FRAME_GAP_MS`] of
    /// capture time before `t` ([`LANE_KEY_FRAME_GAP_MS`] when `t` falls in the model lane's
    /// span).
    fn recent_key_frame(&self, t: u64) -> bool {
        let in_lane = self
            .model_window_start_ms()
            .is_some_and(|from| model_lane(from).contains(&t));
        let gap = match in_lane {
            true => LANE_KEY_FRAME_GAP_MS,
            false => KEY_FRAME_GAP_MS,
        };
        self.last_face_box.is_some() && self.intake.analysed_within(t, gap)
    }

    /// Runs the anti-spoof model on the frame at `t` in the carried face box, and moves the
    /// hold on ([`Self::model_only_turn`]). A frame that does not decode is refused, as an
    /// analysed one would be.
    pub(super) fn judge_in_carried_box(
        &mut self,
        jpeg: &[u8],
        t: u64,
        events: &mut Vec<LivenessEvent>,
    ) {
        if self.last_face_box.is_none() {
            return;
        }
        let Ok(image) = Image::decode_with_limit(jpeg, self.config.max_frame_pixels) else {
            self.refuse(Guidance::InvalidFrame, events);
            return;
        };
        self.judge_image_in_carried_box(&image, t, events);
    }

    /// Runs the anti-spoof model on `image`, the frame at `t`, in the carried face box (under
    /// the colours where the sequence may colour `t`), and moves the flow on.
    fn judge_image_in_carried_box(
        &mut self,
        image: &Image,
        t: u64,
        events: &mut Vec<LivenessEvent>,
    ) {
        let Some(face_box) = self.last_face_box else {
            return;
        };
        if let Ok(live_probability) = self.engine.anti_spoof_in_box(image, &face_box) {
            self.carried_box_judgements.push(CarriedBoxJudgement {
                timestamp_ms: t,
                live_probability,
                under_colours: self.coloured_by_sequence(t),
            });
            self.step(t, events);
        }
    }

    /// The frames the anti-spoof model judged in a carried face box, in capture order (for
    /// evaluation and diagnostics).
    pub fn carried_box_judgements(&self) -> &[CarriedBoxJudgement] {
        &self.carried_box_judgements
    }
}
