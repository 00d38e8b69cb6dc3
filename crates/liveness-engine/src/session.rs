//! One liveness session: fed one JPEG frame at a time with its capture timestamp, it samples,
//! analyses, runs the challenge flow or the passive hold, and finally fuses the layers into a
//! verdict. Memory is bounded: observations are small and capped, the only frame kept is the
//! best portrait candidate, and frames beyond the analysis rate are dropped undecoded.

use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use face_engine::geometry::{Affine, Point};
use face_engine::{EngineResult, FaceEngine, Image, Portrait};

use crate::challenge::{
    Baseline, ChallengeKind, ChallengeState, ChallengeTracker, draw_challenges,
};
use crate::config::{LivenessConfig, LivenessMode};
use crate::error::LivenessError;
use crate::events::{Guidance, LivenessEvent};
use crate::fusion::{EndReason, VerdictReport, fuse};
use crate::layers::injection::StreamTiming;
use crate::layers::{self, quantile};
use crate::observation::{FaceObservation, FrameObservation, observe};
use crate::parallax::{self, FacePatch};

/// Frames of a steady frontal face that set the user's resting values.
const BASELINE_FRAMES: usize = 4;
/// Faces counted with the all-faces detector every this many analysed frames.
const COUNT_ALL_EVERY: usize = 5;
/// Capture time between frames sampled for identity.
const EMBED_EVERY_MS: u64 = 500;
/// Most frames sampled for identity.
const MAX_EMBEDDINGS: usize = 10;
/// A face missing for longer than this counts as lost.
const FACE_LOST_MS: u64 = 1_000;
/// Analysed faces a passive hold needs besides its duration.
const MIN_HOLD_FACES: usize = 10;
/// Analysed faces between the two frames of a parallax pair (about 300 ms at 10 fps).
const PARALLAX_LAG: usize = 3;
/// Recent frame hashes kept to spot byte-identical repeats.
const RECENT_HASHES: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Waiting for a steady face to measure the resting values (active) or start the hold.
    Settling,
    /// Active: the challenge with this index is being asked.
    Challenge(usize),
    /// Passive: holding still since this timestamp.
    Holding(u64),
    Finished,
}

/// A liveness session. `Send`, so a server can move it between worker threads.
#[derive(Debug)]
pub struct LivenessSession {
    engine: Arc<FaceEngine>,
    config: LivenessConfig,
    mode: LivenessMode,
    plan: Vec<ChallengeKind>,
    trackers: Vec<ChallengeTracker>,
    baseline: Option<Baseline>,
    phase: Phase,
    frames: Vec<FrameObservation>,
    max_frames: usize,
    timing: StreamTiming,
    recent_hashes: VecDeque<u64>,
    first_timestamp: Option<u64>,
    last_timestamp: Option<u64>,
    last_analysed: Option<u64>,
    last_face_at: Option<u64>,
    face_visible: bool,
    invalid_frames: u32,
    last_embedding_at: Option<u64>,
    best_frame: Option<(f32, Vec<u8>)>,
    /// The last few faces' patches and rigid points, for the pixel parallax of the next ones.
    recent_patches: VecDeque<(FacePatch, Vec<Point>, f32)>,
    verdict: Option<VerdictReport>,
}

impl LivenessSession {
    /// A session with challenges drawn from the operating system's CSPRNG (active mode).
    pub fn new(
        engine: Arc<FaceEngine>,
        config: LivenessConfig,
        mode: LivenessMode,
    ) -> Result<Self, LivenessError> {
        let plan = match mode {
            LivenessMode::Active => draw_challenges(
                &mut rand::rng(),
                config.min_challenges,
                config.max_challenges,
            ),
            LivenessMode::Passive => Vec::new(),
        };
        Self::with_challenges(engine, config, mode, plan)
    }

    /// A session with a given challenge plan (for drivers and tests that must reproduce one).
    pub fn with_challenges(
        engine: Arc<FaceEngine>,
        config: LivenessConfig,
        mode: LivenessMode,
        plan: Vec<ChallengeKind>,
    ) -> Result<Self, LivenessError> {
        config.validate()?;
        if mode == LivenessMode::Active
            && !(config.min_challenges..=config.max_challenges).contains(&plan.len())
        {
            return Err(LivenessError::InvalidConfig(format!(
                "{} challenges planned, outside {}..={}",
                plan.len(),
                config.min_challenges,
                config.max_challenges
            )));
        }
        let max_frames =
            (config.max_session_ms * u64::from(config.analysis_fps) / 1000) as usize + 16;
        Ok(Self {
            engine,
            mode,
            plan: if mode == LivenessMode::Active {
                plan
            } else {
                Vec::new()
            },
            trackers: Vec::new(),
            baseline: None,
            phase: Phase::Settling,
            frames: Vec::new(),
            max_frames,
            timing: StreamTiming::default(),
            recent_hashes: VecDeque::with_capacity(RECENT_HASHES),
            first_timestamp: None,
            last_timestamp: None,
            last_analysed: None,
            last_face_at: None,
            face_visible: false,
            invalid_frames: 0,
            last_embedding_at: None,
            best_frame: None,
            recent_patches: VecDeque::with_capacity(PARALLAX_LAG + 1),
            verdict: None,
            config,
        })
    }

    pub fn mode(&self) -> LivenessMode {
        self.mode
    }

    /// The challenges this session will ask, in order (empty in passive mode).
    pub fn challenge_plan(&self) -> &[ChallengeKind] {
        &self.plan
    }

    /// The verdict, once the session has finished.
    pub fn verdict(&self) -> Option<&VerdictReport> {
        self.verdict.as_ref()
    }

    /// The analysed frames so far (for evaluation and diagnostics).
    pub fn observations(&self) -> &[FrameObservation] {
        &self.frames
    }

    /// The ICAO portrait from the best frame seen (sharp, frontal, eyes open, mouth closed).
    pub fn portrait(&self) -> Option<EngineResult<Portrait>> {
        let (_, jpeg) = self.best_frame.as_ref()?;
        Some((|| {
            let image = Image::decode_with_limit(jpeg, self.config.max_frame_pixels)?;
            let face = self.engine.primary_face(&image)?;
            self.engine.portrait(&image, &face)
        })())
    }

    /// Feeds one frame captured at `timestamp_ms`; returns the events it caused (none for a
    /// frame dropped by sampling, none at all once the verdict was given).
    pub fn push_frame(&mut self, jpeg: &[u8], timestamp_ms: u64) -> Vec<LivenessEvent> {
        let mut events = Vec::new();
        if self.phase == Phase::Finished {
            return events;
        }
        self.timing.received = self.timing.received.saturating_add(1);
        if self.last_timestamp.is_some_and(|t| timestamp_ms <= t) {
            self.timing.out_of_order += 1;
            events.push(LivenessEvent::Guidance {
                code: Guidance::FrameOutOfOrder,
            });
            self.count_invalid(&mut events);
            return events;
        }
        self.last_timestamp = Some(timestamp_ms);
        let start = *self.first_timestamp.get_or_insert(timestamp_ms);
        if timestamp_ms - start > self.config.max_session_ms {
            self.finish(EndReason::SessionTimeout, &mut events);
            return events;
        }
        if self
            .last_analysed
            .is_some_and(|t| timestamp_ms - t < self.config.min_frame_interval_ms())
        {
            return events; // sampled out, never decoded
        }
        if jpeg.len() > self.config.max_frame_bytes {
            events.push(LivenessEvent::Guidance {
                code: Guidance::InvalidFrame,
            });
            self.count_invalid(&mut events);
            return events;
        }
        self.note_repeats(jpeg);
        match self.analyse(jpeg, timestamp_ms) {
            Some(observation) => self.advance(observation, jpeg, &mut events),
            None => {
                events.push(LivenessEvent::Guidance {
                    code: Guidance::InvalidFrame,
                });
                self.count_invalid(&mut events);
            }
        }
        events
    }

    /// Ends the session when the caller has no more frames (socket closed, recording over):
    /// the verdict rests on what was seen and cannot be `pass`.
    pub fn close(&mut self) -> Vec<LivenessEvent> {
        let mut events = Vec::new();
        self.finish(EndReason::StreamEnded, &mut events);
        events
    }

    fn analyse(&mut self, jpeg: &[u8], timestamp_ms: u64) -> Option<FrameObservation> {
        let image = Image::decode_with_limit(jpeg, self.config.max_frame_pixels).ok()?;
        self.last_analysed = Some(timestamp_ms);
        let count_all = self.frames.len().is_multiple_of(COUNT_ALL_EVERY);
        let embed = self.embeddings_taken() < MAX_EMBEDDINGS
            && self
                .last_embedding_at
                .is_none_or(|t| timestamp_ms - t >= EMBED_EVERY_MS);
        let observation = observe(&self.engine, &image, timestamp_ms, count_all, embed).ok()?;
        if observation
            .face
            .as_ref()
            .is_some_and(|f| f.embedding.is_some())
        {
            self.last_embedding_at = Some(timestamp_ms);
        }
        Some(observation)
    }

    fn embeddings_taken(&self) -> usize {
        layers::faces(&self.frames)
            .filter(|f| f.embedding.is_some())
            .count()
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

    fn count_invalid(&mut self, events: &mut Vec<LivenessEvent>) {
        self.invalid_frames += 1;
        if self.invalid_frames >= self.config.max_invalid_frames {
            self.finish(EndReason::TooManyInvalidFrames, events);
        }
    }

    /// Compares the new face's pixels with the face [`PARALLAX_LAG`] frames back, then keeps
    /// only the few patches later frames need.
    fn measure_parallax(&mut self, face: &mut FaceObservation) {
        let Some(patch) = face.patch.take() else {
            return;
        };
        if self.recent_patches.len() == PARALLAX_LAG
            && let Some((old_patch, old_points, old_span)) = self.recent_patches.pop_front()
        {
            face.parallax = Affine::fit_similarity(&old_points, &face.rigid_points)
                .and_then(|predict| parallax::measure(&old_patch, &patch, &predict, old_span));
        }
        self.recent_patches
            .push_back((patch, face.rigid_points.clone(), face.eye_span));
    }

    fn advance(&mut self, mut obs: FrameObservation, jpeg: &[u8], events: &mut Vec<LivenessEvent>) {
        let t = obs.timestamp_ms;
        match obs.face.as_mut() {
            Some(face) => self.measure_parallax(face),
            None => self.recent_patches.clear(),
        }
        self.guide(&obs, events);
        if let Some(face) = &obs.face {
            self.consider_for_portrait(face, jpeg);
        }
        let face = obs.face.clone();
        if self.frames.len() < self.max_frames {
            self.frames.push(obs);
        }
        let since_face = t.saturating_sub(self.last_face_at.or(self.first_timestamp).unwrap_or(t));
        if since_face > self.config.no_face_timeout_ms {
            self.finish(EndReason::NoFace, events);
            return;
        }
        match self.phase {
            Phase::Settling => self.settle(t, events),
            Phase::Challenge(index) => self.run_challenge(index, t, face.as_ref(), events),
            Phase::Holding(since) => {
                if self.face_visible {
                    let faces = layers::faces(&self.frames).count();
                    if t - since >= self.config.passive_hold_ms && faces >= MIN_HOLD_FACES {
                        self.finish(EndReason::Completed, events);
                    }
                } else {
                    self.phase = Phase::Settling;
                }
            }
            Phase::Finished => {}
        }
    }

    /// Face presence events and guidance.
    fn guide(&mut self, obs: &FrameObservation, events: &mut Vec<LivenessEvent>) {
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
        } else if face.brightness < 0.2 {
            Some(Guidance::TooDark)
        } else if face.size_fraction < 0.2 {
            Some(Guidance::MoveCloser)
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
        let frontal_only = self.mode == LivenessMode::Active;
        let recent: Vec<&FaceObservation> = self
            .frames
            .iter()
            .rev()
            .take(BASELINE_FRAMES)
            .filter_map(|f| f.face.as_ref())
            .filter(|f| !frontal_only || f.pose.yaw.abs() < 15.0)
            .collect();
        if recent.len() < BASELINE_FRAMES {
            let waited = t.saturating_sub(self.first_timestamp.unwrap_or(t));
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
            LivenessMode::Passive => {
                // the hold counts from the first steady face frame: settling is holding too
                let since = self
                    .frames
                    .iter()
                    .rev()
                    .take(BASELINE_FRAMES)
                    .map(|f| f.timestamp_ms)
                    .min()
                    .unwrap_or(t);
                self.phase = Phase::Holding(since);
                events.push(LivenessEvent::Guidance {
                    code: Guidance::HoldStill,
                });
            }
            LivenessMode::Active => {
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

    fn ask(&mut self, index: usize, t: u64, events: &mut Vec<LivenessEvent>) {
        let Some(&kind) = self.plan.get(index) else {
            self.finish(EndReason::Completed, events);
            return;
        };
        self.trackers.push(ChallengeTracker::new(kind, index, t));
        self.phase = Phase::Challenge(index);
        events.push(LivenessEvent::Challenge { kind, index });
    }

    fn run_challenge(
        &mut self,
        index: usize,
        t: u64,
        face: Option<&FaceObservation>,
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

    fn consider_for_portrait(&mut self, face: &FaceObservation, jpeg: &[u8]) {
        let frontal = (1.0 - face.pose.yaw.abs() / 30.0) * (1.0 - face.pose.pitch.abs() / 40.0);
        let eyes = (face.eye_openness / 0.25).min(1.0);
        let mouth = 1.0 - (face.mouth_open / 0.2).min(1.0);
        let score = frontal.max(0.0) * eyes * mouth * face.sharpness * face.detector_score;
        if self
            .best_frame
            .as_ref()
            .is_none_or(|(best, _)| score > *best)
        {
            self.best_frame = Some((score, jpeg.to_vec()));
        }
    }

    fn finish(&mut self, end_reason: EndReason, events: &mut Vec<LivenessEvent>) {
        if self.phase == Phase::Finished {
            return;
        }
        self.phase = Phase::Finished;
        let mut scores = Vec::with_capacity(5);
        if self.mode == LivenessMode::Active {
            scores.push(layers::challenge_response::score(&self.trackers));
        }
        scores.push(layers::anti_spoof::score(&self.frames));
        scores.push(layers::injection::score(&self.frames, &self.timing));
        scores.push(layers::consistency::score(&self.frames));
        scores.push(layers::motion::score(&self.frames));
        let report = fuse(self.mode, scores, end_reason);
        self.verdict = Some(report.clone());
        events.push(LivenessEvent::Verdict(report));
    }
}
