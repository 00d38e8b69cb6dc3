//! One liveness session: fed one JPEG frame at a time with its capture timestamp, it admits or
//! drops the frame (`intake`), analyses it, moves the challenge flow or the passive hold on
//! (`flow`), and finally fuses the layers into a verdict (`ending`). Memory is bounded:
//! observations are small and capped, the only frame kept is the portrait candidate
//! (`portrait`), and frames beyond the analysis rate are dropped undecoded, except while a
//! blink is asked: then they are watched (eye openness read, nothing kept), since a blink can
//! fall between two analysed frames.

mod ending;
mod flow;
mod intake;
mod key_frames;
mod light;
mod opening;
mod portrait;

use std::sync::Arc;

use domain::LivenessPath;

use face_engine::geometry::BoundingBox;
use face_engine::{EngineResult, FaceEngine, Image, Portrait};

use crate::challenge::{Baseline, ChallengeKind, ChallengeTracker};
use crate::config::{LivenessConfig, SessionMode};
use crate::error::LivenessError;
use crate::events::{Guidance, LivenessEvent};
use crate::fusion::{EndReason, VerdictReport};
use crate::illumination::reading::LightReading;
use crate::illumination::sample::LightSample;
use crate::mailbox::TakenFrame;
use crate::motion::parallax::{FacePatch, ParallaxTracker};
use crate::observation::{
    Analysis, CarriedBoxJudgement, FrameObservation, observe, observe_action,
};

pub use ending::LookOutcome;
pub use flow::MIN_MODEL_FACES;
use intake::{Admission, FrameIntake};
pub use key_frames::{
    COLOURED_JUDGEMENT_GAP_MS, KEY_FRAME_GAP_MS, LANE_KEY_FRAME_GAP_MS, WORKER_BACK_SOON_MS,
};
pub use light::{CAMERA_SETTLE_MS, LightCheck};
pub use opening::{NO_FLASH_CHALLENGES, Opening};
use portrait::PortraitCandidate;

/// Faces counted with the all-faces detector every this many analysed frames.
const COUNT_ALL_EVERY: usize = 5;
/// The anti-spoof model runs on every this many analysed frames. Its layer takes the median
/// and the 25th percentile over the session, which half the frames estimate as well (issue 16:
/// it is a third of a frame's cost). With the light check it runs on every analysed frame:
/// on those the colours may tint for the look at their end alone (`ending`), on the unlit
/// ones after them for the layer.
const ANTI_SPOOF_EVERY: usize = 2;
/// Capture time between frames sampled for identity.
const EMBED_EVERY_MS: u64 = 500;
/// Frames sampled for identity before [`EMBED_EVERY_MS`] alone decides. After them, a session
/// whose frames are analysed further apart than that (a loaded server) embeds every other
/// analysed face, not each one: the consistency layer compares any two, and the embedding is
/// the dearest model of a frame (issue 42). At the full analysis rate the 500 ms come first.
const EMBEDDINGS_BEFORE_ALTERNATING: usize = 2;
/// Most frames sampled for identity.
const MAX_EMBEDDINGS: usize = 10;

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
    mode: SessionMode,
    plan: Vec<ChallengeKind>,
    trackers: Vec<ChallengeTracker>,
    baseline: Option<Baseline>,
    phase: Phase,
    frames: Vec<FrameObservation>,
    max_frames: usize,
    intake: FrameIntake,
    last_face_at: Option<u64>,
    face_visible: bool,
    /// Passive: the user was asked to turn their head slightly (once per session).
    asked_to_turn: bool,
    last_embedding_at: Option<u64>,
    embeddings: usize,
    portrait: PortraitCandidate,
    parallax: ParallaxTracker,
    light: LightCheck,
    /// The light check's samples: every analysed face, and the frames between them while the
    /// sequence is shown (capture time, regions).
    light_samples: Vec<(u64, LightSample)>,
    /// The light reading over the first `.0` samples, kept until a sample is added.
    light_cache: std::cell::Cell<Option<(usize, LightReading)>>,
    last_face_box: Option<BoundingBox>,
    /// The frames the anti-spoof model judged in a carried face box (`key_frames`).
    carried_box_judgements: Vec<CarriedBoxJudgement>,
    /// The one look at the colours' end (`ending`): not yet due, passed over, or taken.
    look: ending::Look,
    /// Capture time of the newest frame of the last take from the mailbox (`push_taken`).
    last_take_ms: Option<u64>,
    /// Whether the worker came back to this session within [`WORKER_BACK_SOON_MS`] of its
    /// last take (`key_frames::coloured_model_turn`).
    worker_back_soon: bool,
    /// The capture time between the newest frames of consecutive takes that ended in the
    /// sequence's window (`key_frames::take_gaps_under_colours_ms`).
    take_gaps_under_colours_ms: Vec<u64>,
    /// The replica streams more sessions than it judges faces under the colours for
    /// (`key_frames::set_replica_crowded`).
    replica_crowded: bool,
    verdict: Option<VerdictReport>,
}

impl LivenessSession {
    /// A session that asks exactly `plan` under `light`: for replay drivers that must ask
    /// what a labelled recording holds (the accuracy sweeps draw plans from the actions a
    /// clip contains). Everything else opens sessions with [`Self::new`].
    pub fn replaying(
        engine: Arc<FaceEngine>,
        config: LivenessConfig,
        mode: SessionMode,
        plan: Vec<ChallengeKind>,
        light: LightCheck,
    ) -> Result<Self, LivenessError> {
        config.validate()?;
        if mode == SessionMode::Active
            && !(config.min_challenges..=config.max_challenges).contains(&plan.len())
        {
            return Err(LivenessError::InvalidConfig(format!(
                "{} challenges planned, outside {}..={}",
                plan.len(),
                config.min_challenges,
                config.max_challenges
            )));
        }
        // sampling admits at most one frame per interval, so the session timeout comes first
        let max_frames = (config.max_session_ms / config.min_frame_interval_ms()) as usize + 2;
        Ok(Self {
            engine,
            mode,
            plan: if mode == SessionMode::Active {
                plan
            } else {
                Vec::new()
            },
            trackers: Vec::new(),
            baseline: None,
            phase: Phase::Settling,
            frames: Vec::new(),
            max_frames,
            intake: FrameIntake::default(),
            last_face_at: None,
            face_visible: false,
            asked_to_turn: false,
            last_embedding_at: None,
            embeddings: 0,
            portrait: PortraitCandidate::default(),
            parallax: ParallaxTracker::default(),
            light,
            light_samples: Vec::new(),
            light_cache: std::cell::Cell::new(None),
            last_face_box: None,
            carried_box_judgements: Vec::new(),
            look: ending::Look::NotDue,
            last_take_ms: None,
            worker_back_soon: true,
            take_gaps_under_colours_ms: Vec::new(),
            replica_crowded: false,
            verdict: None,
            config,
        })
    }

    pub fn mode(&self) -> SessionMode {
        self.mode
    }

    /// Whether the session shows (or showed, before a reconnect) the screen's colours:
    /// [`LivenessPath::NoFlash`] when it was opened on that path or the light check is off.
    pub fn liveness_path(&self) -> LivenessPath {
        match self.light {
            LightCheck::Off => LivenessPath::NoFlash,
            LightCheck::Sequence(_) | LightCheck::ShownEarlier => LivenessPath::Light,
        }
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
        self.portrait
            .render(&self.engine, self.config.max_frame_pixels)
    }

    /// Feeds one frame captured at `timestamp_ms`; returns the events it caused (none for a
    /// frame dropped by sampling, none at all once the verdict was given).
    pub fn push_frame(&mut self, jpeg: &[u8], timestamp_ms: u64) -> Vec<LivenessEvent> {
        let events = self.push(jpeg, timestamp_ms, false);
        self.read_light_once_over(timestamp_ms);
        events
    }

    /// [`Self::push_frame`]; `behind`: the server fell behind this session (its mailbox
    /// replaced frames), so a frame due for analysis may be read in the last key frame's face
    /// box: while the colours may colour it for the light and the look at their end
    /// ([`Self::coloured_turn`], [`Self::read_coloured`]), after them by the anti-spoof model
    /// ([`Self::model_only_turn`]).
    fn push(&mut self, jpeg: &[u8], timestamp_ms: u64, behind: bool) -> Vec<LivenessEvent> {
        let mut events = Vec::new();
        if self.phase == Phase::Finished {
            return events;
        }
        let watching = match self.phase {
            Phase::Challenge(index) => self
                .trackers
                .get(index)
                .is_some_and(ChallengeTracker::needs_every_frame),
            _ => false,
        };
        let admission = match self
            .intake
            .admit(&self.config, jpeg, timestamp_ms, watching)
        {
            // behind the session while the colours show or the camera settles after them:
            // sampled out down to the key frames
            Admission::Analyse if behind && self.coloured_turn(timestamp_ms) => {
                Admission::SampledOut
            }
            admission => admission,
        };
        match admission {
            Admission::Analyse if behind && self.model_only_turn(timestamp_ms) => {
                self.judge_in_carried_box(jpeg, timestamp_ms, &mut events)
            }
            Admission::SampledOut if behind => {
                self.read_coloured(jpeg, timestamp_ms, false, &mut events)
            }
            Admission::SampledOut => self.sample_light(jpeg, timestamp_ms, false),
            Admission::Watch => self.watch(jpeg, timestamp_ms, &mut events),
            Admission::SessionOver => self.finish(EndReason::SessionTimeout, &mut events),
            Admission::Refused(code) => self.refuse(code, &mut events),
            Admission::Analyse => match self.analyse(jpeg, timestamp_ms, behind) {
                Some(observation) => self.advance(observation, jpeg, &mut events),
                None => self.refuse(Guidance::InvalidFrame, &mut events),
            },
        }
        events
    }

    /// Feeds what a worker took from the session's mailbox, in the last analysed face's box:
    /// the frames set aside while the screen's colours were shown are read by the light check
    /// (a decode each), with `LivenessConfig::look_when_behind` about one a colour step also
    /// by the anti-spoof model for the look at the colours' end (`key_frames`), those set aside
    /// in the model's first unlit span are judged by the anti-spoof model alone
    /// (`key_frames`), and the newest frame goes through
    /// [`Self::push_frame`]. Before the first face box, the newest frame goes first: its face
    /// gives the box the set-aside frames are read in (a loaded server's first analysis of a
    /// session can come a second or more into the colours). Frames replaced in the mailbox mean
    /// the server fell behind: then the newest frame is analysed only as a key frame that
    /// renews the face box (`key_frames`).
    pub fn push_taken(&mut self, taken: &TakenFrame) -> Vec<LivenessEvent> {
        let behind = taken.replaced > 0;
        self.note_take(taken.newest.timestamp_ms);
        let read_set_aside = |session: &mut Self, events: &mut Vec<LivenessEvent>| {
            for frame in &taken.set_aside {
                if session.phase == Phase::Finished {
                    break;
                }
                let (jpeg, t) = (&frame.jpeg, frame.timestamp_ms);
                if session.coloured_by_sequence(t) {
                    session.read_coloured(jpeg, t, true, events);
                } else if session.set_aside_model_turn(t) {
                    session.judge_in_carried_box(jpeg, t, events);
                }
            }
        };
        let (jpeg, t) = (&taken.newest.jpeg, taken.newest.timestamp_ms);
        let mut events = Vec::new();
        if self.last_face_box.is_some() {
            read_set_aside(self, &mut events);
            events.extend(self.push(jpeg, t, behind));
        } else {
            events.extend(self.push(jpeg, t, behind));
            read_set_aside(self, &mut events);
        }
        self.read_light_once_over(t);
        events
    }

    fn refuse(&mut self, code: Guidance, events: &mut Vec<LivenessEvent>) {
        events.push(LivenessEvent::Guidance { code });
        if self.intake.count_invalid(&self.config) {
            self.finish(EndReason::TooManyInvalidFrames, events);
        }
    }

    /// Decodes and observes the frame; `None` when it is unreadable. `behind`: the server fell
    /// behind the session (its mailbox replaced frames).
    fn analyse(
        &mut self,
        jpeg: &[u8],
        timestamp_ms: u64,
        behind: bool,
    ) -> Option<FrameObservation> {
        let image = Image::decode_with_limit(jpeg, self.config.max_frame_pixels).ok()?;
        self.intake.mark_analysed(timestamp_ms);
        let coloured = self.coloured_by_sequence(timestamp_ms);
        let analysis = Analysis {
            count_all_faces: self.frames.len().is_multiple_of(COUNT_ALL_EVERY),
            // with the light check the model judges every frame: those the colours may tint
            // for the look at the colours' end alone (`early_look`), the rest for the layer;
            // a server behind a session while the colours show analyses its key frames only
            // and spares the model there: it judges about one face a colour step in the key
            // frame's box instead (`key_frames`)
            anti_spoof: match (coloured, behind) {
                (true, true) => false,
                _ => self.light_check_shown() || self.frames.len().is_multiple_of(ANTI_SPOOF_EVERY),
            },
            embedding: self.embeddings < MAX_EMBEDDINGS
                && self
                    .last_embedding_at
                    .is_none_or(|t| timestamp_ms - t >= EMBED_EVERY_MS)
                && (self.embeddings < EMBEDDINGS_BEFORE_ALTERNATING || !self.last_face_embedded()),
        };
        let mut observation = observe(&self.engine, &image, timestamp_ms, analysis).ok()?;
        self.keep_light(jpeg, timestamp_ms, observation.face.as_ref());
        match observation.face.as_mut() {
            Some(face) => {
                if coloured {
                    // the screen's colours tint the face, and the camera's white balance then
                    // tints it the other way: the layer judges unlit faces only
                    face.anti_spoof_under_colours = face.anti_spoof.take();
                }
                if face.embedding.is_some() {
                    self.last_embedding_at = Some(timestamp_ms);
                    self.embeddings += 1;
                }
                let patch = FacePatch::capture(image.rgb(), &face.bbox);
                face.parallax =
                    self.parallax
                        .push(patch, &face.rigid_points, face.eye_span, timestamp_ms);
            }
            None => self.parallax.clear(),
        }
        Some(observation)
    }

    /// Whether the last analysed frame's face was sampled for identity.
    fn last_face_embedded(&self) -> bool {
        self.frames
            .last()
            .and_then(|f| f.face.as_ref())
            .is_some_and(|face| face.embedding.is_some())
    }

    /// Reads only what the challenge being asked needs from a frame between two analysed
    /// ones. Nothing is kept, and an unreadable frame or one without a face is passed over:
    /// the analysed frames judge those.
    fn watch(&mut self, jpeg: &[u8], timestamp_ms: u64, events: &mut Vec<LivenessEvent>) {
        let Phase::Challenge(index) = self.phase else {
            return;
        };
        let Ok(image) = Image::decode_with_limit(jpeg, self.config.max_frame_pixels) else {
            return;
        };
        if let Ok(Some(reading)) = observe_action(&self.engine, &image) {
            self.run_challenge(index, timestamp_ms, Some(&reading), events);
        }
    }

    fn advance(&mut self, mut obs: FrameObservation, jpeg: &[u8], events: &mut Vec<LivenessEvent>) {
        let t = obs.timestamp_ms;
        self.guide(&obs, events);
        let primary_face = obs.primary_face.take();
        if let Some(face) = &obs.face {
            self.portrait.consider(face, primary_face, jpeg);
        }
        if self.frames.len() >= self.max_frames {
            self.finish(EndReason::SessionTimeout, events);
            return;
        }
        self.frames.push(obs);
        self.step(t, events);
    }
}
