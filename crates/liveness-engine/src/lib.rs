//! Facegate's liveness engine: the challenge flow, per-frame analysis, the five verification
//! layers and verdict fusion, fed one frame at a time.
//!
//! Create a [`LivenessSession`], call [`LivenessSession::push_frame`] with each JPEG frame and
//! its capture timestamp, and forward the returned [`LivenessEvent`]s to the client. The last
//! event is a [`LivenessEvent::Verdict`]; [`LivenessSession::portrait`] then gives the ICAO
//! portrait from the best frame. No web and no storage here: the session API feeds it.

pub mod camera_model;
pub mod capture_time;
pub mod challenge;
mod config;
mod error;
mod events;
pub mod fusion;
pub mod homography;
pub mod illumination;
pub mod layers;
pub mod light_camera;
pub mod mailbox;
pub mod observation;
pub mod parallax;
pub mod patch;
pub mod replay;
pub mod room;
mod session;
pub mod signals;
pub mod surround;

pub use challenge::ChallengeKind;
pub use config::{LivenessConfig, SessionMode};
pub use error::LivenessError;
pub use events::{Guidance, LivenessEvent};
pub use fusion::{EndReason, VerdictReport};
pub use illumination::Illumination;
pub use illumination::reading::{LightFinding, LightReading};
pub use layers::{Evidence, Layer, LayerScore};
pub use session::{LightCheck, LivenessSession};
