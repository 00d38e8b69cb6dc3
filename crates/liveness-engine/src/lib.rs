//! Facegate's liveness engine: the challenge flow, per-frame analysis, the five verification
//! layers and verdict fusion, fed one frame at a time.
//!
//! Create a [`LivenessSession`], call [`LivenessSession::push_frame`] with each JPEG frame and
//! its capture timestamp, and forward the returned [`LivenessEvent`]s to the client. The last
//! event is a [`LivenessEvent::Verdict`]; [`LivenessSession::portrait`] then gives the ICAO
//! portrait from the best frame. No web and no storage here: the session API feeds it.

pub mod capture_time;
pub mod challenge;
mod config;
mod error;
mod events;
mod evidence;
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
pub use error::LivenessError;
pub use events::{Guidance, LivenessEvent};
pub use fusion::{EndReason, VerdictReport};
pub use illumination::Illumination;
pub use illumination::reading::{LightFinding, LightReading};
pub use layers::{Evidence, Layer, LayerScore};
pub use session::{KEY_FRAME_GAP_MS, LANE_KEY_FRAME_GAP_MS, LightCheck, LivenessSession, Opening};
