//! The session's flow after each analysed frame: face presence and guidance, settling on the
//! resting values, the active challenges one by one, and the passive hold.

use crate::challenge::{ActionReading, Baseline, ChallengeState, ChallengeTracker};
use crate::config::SessionMode;
use crate::events::{Guidance, LivenessEvent};
use crate::fusion::EndReason;
use crate::layers::{self, quantile};
use crate::observation::{FaceObservation, FrameObservation};

use super::{LivenessSession, Phase};

/// Frames of a steady face (frontal in active mode) that set the user's resting values.
const BASELINE_FRAMES: usize = 4;
/// Largest yaw (degrees) of a face active mode takes as frontal for its resting values: the
/// turn a challenge asks for (`TURN_DEGREES`), so a resting face never already counts as turned.
const FRONTAL_YAW_DEGREES: f32 = crate::challenge::TURN_DEGREES;
/// Face height over the frame's below which the face is asked to come closer (guidance only;
/// set by hand with the engine, 54c157f).
const MOVE_CLOSER_SIZE: f32 = 0.2;
/// A face missing for longer than this counts as lost.
const FACE_LOST_MS: u64 = 1_000;
/// Analysed faces a passive hold needs besides its duration.
const MIN_HOLD_FACES: usize = 10;
/// Faces the anti-spoof model judged that a passive hold with the light check needs (the
/// model skips the frames the colours light; its median and 25th percentile over fewer than
/// about a second of frames swing with a single odd frame).
pub const MIN_MODEL_FACES: usize = 10;
/// Capture time over which half of [`MIN_HOLD_FACES`] (or of [`MIN_MODEL_FACES`]) stands in
/// for the whole count. The counts ask for enough frames that one odd frame does not sway the
/// layers' medians and quartiles; a loaded server analyses each session's frames a second or
/// more apart, and then ten faces would hold the verdict back ten seconds, while five spread
/// over two seconds vary more than ten taken within one (at the full analysis rate the count
/// comes first, so a session that is kept up with is judged as before). Issue 42: a verdict
/// needs evidence, not a count of analysed frames.
const SPREAD_FACES_SPAN_MS: u64 = 2_000;
/// How much longer a passive hold runs, after asking for a slight head turn, when its motion
/// was not enough to judge depth.
pub const HOLD_EXTENSION_MS: u64 = 4_000;

impl LivenessSession {
    /// Moves the flow on after the newest frame (the last of `self.frames`).
    pub(super) fn step(&mut self, t: u64, events: &mut Vec<LivenessEvent>) {
        let since_face = t.saturating_sub(
            self.last_face_at
                .or(self.intake.first_timestamp)
                .unwrap_or(t),
        );
        if since_face > self.config.no_face_timeout_ms {
            self.finish(EndReason::NoFace, events);
            return;
        }
        match self.phase {
            Phase::Settling => self.settle(t, events),
            Phase::Challenge(index) => {
                let reading = self
                    .frames
                    .last()
                    .and_then(|f| f.face.as_ref())
                    .map(FaceObservation::action_reading);
                self.run_challenge(index, t, reading.as_ref(), events);
            }
            Phase::Holding(since) => self.hold(since, t, events),
            Phase::Finished => {}
        }
    }

    /// Face presence events and guidance.
    pub(super) fn guide(&mut self, obs: &FrameObservation, events: &mut Vec<LivenessEvent>) {
        let t = obs.timestamp_ms;
        let Some(face) = &obs.face else {
            if self.face_visible && t - self.last_face_at.unwrap_or(t) > FACE_LOST_MS {
                self.face_visible = false;
                events.push(LivenessEvent::Guidance {
                    code: Guidance::NoFace,
                });
            }
            return;
        };
        self.last_face_at = Some(t);
        if !self.face_visible {
            self.face_visible = true;
            events.push(LivenessEvent::FaceDetected {
                confidence: (face.detector_score * 1000.0).round() / 1000.0,
                centered: face.centered,
            });
        }
        let hint = if obs.face_count > 1 {
            Some(Guidance::OneFaceOnly)
        } else if face.brightness < crate::layers::anti_spoof::DARK_FACE {
            Some(Guidance::TooDark)
        } else if face.size_fraction < MOVE_CLOSER_SIZE {
            Some(Guidance::MoveCloser)
        } else if face.anti_spoof_context < crate::layers::anti_spoof::MIN_CONTEXT {
            Some(Guidance::MoveBack)
        } else if !face.centered {
            Some(Guidance::CenterFace)
        } else {
            None
        };
        if let Some(code) = hint {
            events.push(LivenessEvent::Guidance { code });
        }
    }

    fn settle(&mut self, t: u64, events: &mut Vec<LivenessEvent>) {
        // active mode measures the resting values on a frontal face; passive only needs a face
        let frontal_only = self.mode == SessionMode::Active;
        let last = &self.frames[self.frames.len().saturating_sub(BASELINE_FRAMES)..];
        let recent: Vec<&FaceObservation> = last
            .iter()
            .filter_map(|f| f.face.as_ref())
            .filter(|f| !frontal_only || f.pose.yaw.abs() < FRONTAL_YAW_DEGREES)
            .collect();
        if recent.len() < BASELINE_FRAMES {
            let waited = t.saturating_sub(self.intake.first_timestamp.unwrap_or(t));
            if waited > self.config.no_face_timeout_ms {
                self.finish(EndReason::NoFace, events);
            } else if frontal_only && self.face_visible {
                events.push(LivenessEvent::Guidance {
                    code: Guidance::LookAtCamera,
                });
            }
            return;
        }
        match self.mode {
            SessionMode::Passive => {
                // the hold counts from the first steady face frame: settling is holding too
                let since = last.first().map_or(t, |f| f.timestamp_ms);
                self.phase = Phase::Holding(since);
                events.push(LivenessEvent::Guidance {
                    code: Guidance::HoldStill,
                });
            }
            SessionMode::Active => {
                if !self.light_window_over(t) {
                    // the colours are shown before the first challenge, on a steady face
                    return;
                }
                let median = |f: fn(&FaceObservation) -> f32| {
                    quantile(&mut recent.iter().map(|o| f(o)).collect::<Vec<_>>(), 0.5)
                };
                self.baseline = Some(Baseline {
                    yaw: median(|o| o.pose.yaw),
                    eye_openness: median(|o| o.eye_openness),
                    mouth_width: median(|o| o.mouth_width),
                });
                self.ask(0, t, events);
            }
        }
    }

    fn hold(&mut self, since: u64, t: u64, events: &mut Vec<LivenessEvent>) {
        if !self.face_visible {
            self.phase = Phase::Settling;
            return;
        }
        let held = t.saturating_sub(since);
        if held < self.config.passive_hold_ms || !enough(MIN_HOLD_FACES, self.face_times(|_| true))
        {
            return;
        }
        if !self.light_window_over(t) {
            // every frame the sequence lit is needed before the light is judged
            return;
        }
        if self.look_at_colours_end(t, events) {
            return;
        }
        if self.light_check_shown() && !enough(MIN_MODEL_FACES, self.model_judged_times()) {
            // the model's faces under the colours judged the look only: it needs unlit ones
            return;
        }
        let extended = held >= self.config.passive_hold_ms + HOLD_EXTENSION_MS;
        let light = self.light_reading();
        let light_conclusive = light
            .as_ref()
            .is_some_and(|l| l.finding.evidence() != layers::Evidence::None);
        // the motion layer's own judgement, not the measurement alone: with the light it can
        // take depth away (a sheet swayed before a still room) or lend it; asked only when
        // neither the time nor the light has decided
        let motion_conclusive = || {
            layers::motion::score(&self.evidence(light.as_ref())).evidence != layers::Evidence::None
        };
        if extended || light_conclusive || motion_conclusive() {
            self.finish(EndReason::Completed, events);
        } else if !self.asked_to_turn {
            // still as a photo so far: ask for the motion that tells a head from a picture
            self.asked_to_turn = true;
            events.push(LivenessEvent::Guidance {
                code: Guidance::TurnHeadSlightly,
            });
        }
    }

    /// Capture times of the analysed faces that `counted` picks.
    fn face_times(&self, counted: fn(&FaceObservation) -> bool) -> impl Iterator<Item = u64> + '_ {
        self.frames
            .iter()
            .filter(move |f| f.face.as_ref().is_some_and(&counted))
            .map(|f| f.timestamp_ms)
    }

    /// Capture times of the unlit faces the anti-spoof model judged: analysed, or in a carried
    /// face box (`key_frames`).
    pub(super) fn model_judged_times(&self) -> impl Iterator<Item = u64> + '_ {
        self.model_times(false)
    }

    /// Capture times of the faces the anti-spoof model judged under the colours, for the look
    /// at their end: analysed, or in a carried face box (`key_frames`).
    pub(super) fn model_times_under_colours(&self) -> impl Iterator<Item = u64> + '_ {
        self.model_times(true)
    }

    /// Capture times of the faces the anti-spoof model judged, under the colours or not.
    fn model_times(&self, under_colours: bool) -> impl Iterator<Item = u64> + '_ {
        let analysed: fn(&FaceObservation) -> bool = match under_colours {
            true => |f| f.anti_spoof_under_colours.is_some(),
            false => |f| f.anti_spoof.is_some(),
        };
        self.face_times(analysed).chain(
            self.carried_box_judgements
                .iter()
                .filter(move |j| j.under_colours == under_colours)
                .map(|j| j.timestamp_ms),
        )
    }

    fn ask(&mut self, index: usize, t: u64, events: &mut Vec<LivenessEvent>) {
        let Some(&kind) = self.plan.get(index) else {
            self.finish(EndReason::Completed, events);
            return;
        };
        self.trackers.push(ChallengeTracker::new(kind, index, t));
        self.phase = Phase::Challenge(index);
        events.push(LivenessEvent::Challenge { kind, index });
    }

    /// Feeds the challenge being asked with the face read at `t` (from an analysed frame or a
    /// watched one), and asks the next once it has passed or timed out.
    pub(super) fn run_challenge(
        &mut self,
        index: usize,
        t: u64,
        face: Option<&ActionReading>,
        events: &mut Vec<LivenessEvent>,
    ) {
        let (Some(baseline), Some(tracker)) = (self.baseline, self.trackers.get_mut(index)) else {
            return;
        };
        let state = tracker.update(&baseline, t, face, self.config.challenge_timeout_ms);
        if matches!(state, ChallengeState::Passed | ChallengeState::TimedOut) {
            events.push(LivenessEvent::ChallengeResult {
                index,
                passed: state == ChallengeState::Passed,
            });
            self.ask(index + 1, t, events);
        }
    }
}

/// Whether faces seen at `times` (in any order) number `count`, or half of it over at least
/// [`SPREAD_FACES_SPAN_MS`] of capture time.
fn enough(count: usize, times: impl Iterator<Item = u64>) -> bool {
    let (mut seen, mut first, mut last) = (0, u64::MAX, 0);
    for t in times {
        seen += 1;
        first = first.min(t);
        last = last.max(t);
    }
    let span = last.saturating_sub(first);
    seen >= count || (seen >= count.div_ceil(2) && span >= SPREAD_FACES_SPAN_MS)
}
