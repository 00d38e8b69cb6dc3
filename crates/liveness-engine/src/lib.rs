//! Facegate's liveness engine: the challenge flow, per-frame analysis, the five verification
//! layers and verdict fusion, fed one frame at a time.
//!
//! Create a [`LivenessSession`], call [`LivenessSession::push_frame`] with each JPEG frame and
//! its capture timestamp, and forward the returned [`LivenessEvent`]s to the client. The last
//! event is a [`LivenessEvent::Verdict`]; [`LivenessSession::portrait`] then gives the ICAO
//! portrait from the best frame. No web and no storage here: the session API feeds it.
//!
//! # Run a session over a folder of frames
//!
//! Frames filmed at 15 frames a second (here extracted once from the shared test footage
//! `videos/webcam-man-1.mp4` with ffmpeg) go through a passive session, each with its capture
//! time; the session answers with events for the person (guidance, challenges) and ends with
//! its verdict and what each layer found. This session runs without the screen's light: a
//! server shows the light's colours on the person's screen
//! ([`LivenessSession::illumination`]), and without them a passive session rests on motion
//! and the anti-spoof model, which earns a live person a `pass` or a `retry`, never a `fail`.
//!
//! ```
//! use std::sync::Arc;
//!
//! use facegate_liveness_engine::{
//!     FaceEngine, LivenessConfig, LivenessEvent, LivenessPath, LivenessSession, Opening, SessionMode,
//!     Verdict,
//! };
//! use rand::SeedableRng;
//!
//! let engine = Arc::new(FaceEngine::load_embedded()?);
//! let config = LivenessConfig { illumination_enabled: false, ..LivenessConfig::default() };
//! // production seeds each session from the OS and stores the seed
//! let mut rng = rand::rngs::StdRng::seed_from_u64(7);
//! let mut session = LivenessSession::new(
//!     engine,
//!     config,
//!     SessionMode::Passive,
//!     &mut rng,
//!     Opening::First,
//!     LivenessPath::Light,
//! )?;
//!
//! # let recording = liveness_rig::eval::video("webcam-man-1");
//! # let folder = recording.frames[0].parent().expect("a folder of frames").to_owned();
//! let mut frames: Vec<_> = std::fs::read_dir(&folder)?
//!     .map(|entry| entry.map(|entry| entry.path()))
//!     .collect::<Result<_, _>>()?;
//! frames.retain(|path| path.extension().is_some_and(|ext| ext == "jpg"));
//! frames.sort();
//! for (index, path) in frames.iter().enumerate() {
//!     let capture_ms = index as u64 * 1000 / 15;
//!     for event in session.push_frame(&std::fs::read(path)?, capture_ms) {
//!         if let LivenessEvent::Guidance { code } = event {
//!             println!("{capture_ms} ms: {code:?}");
//!         }
//!     }
//!     if session.verdict().is_some() {
//!         break;
//!     }
//! }
//! let report = session.conclude();
//! println!("{:?} {:?}", report.verdict, report.reasons);
//! for layer in &report.layers {
//!     println!("{:?}: {:.2} ({})", layer.layer, layer.score, layer.reason);
//! }
//! assert_ne!(report.verdict, Verdict::Fail);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod capture_time;
pub mod challenge;
mod config;
mod error;
mod events;
mod evidence;
pub mod fitted;
pub mod fusion;
pub mod illumination;
pub mod layers;
pub mod mailbox;
pub mod motion;
pub mod observation;
mod session;
pub mod signals;

pub use challenge::ChallengeKind;
pub use config::{LivenessConfig, SessionMode};
/// The verdict and reason codes of a session's report, from `domain`.
pub use domain::{LivenessPath, ReasonCode, Verdict};
pub use error::LivenessError;
pub use events::{Guidance, LivenessEvent};
/// The face engine a session runs on, re-exported so that one dependency line is enough.
pub use face_engine::FaceEngine;
pub use fusion::{EndReason, VerdictReport};
pub use illumination::Illumination;
pub use illumination::reading::{LightFinding, LightReading};
pub use layers::{Evidence, Layer, LayerScore};
pub use session::{
    CAMERA_SETTLE_MS, COLOURED_JUDGEMENT_GAP_MS, KEY_FRAME_GAP_MS, LANE_KEY_FRAME_GAP_MS,
    LightCheck, LivenessSession, LookOutcome, MIN_MODEL_FACES, NO_FLASH_CHALLENGES, Opening,
    WORKER_BACK_SOON_MS,
};
