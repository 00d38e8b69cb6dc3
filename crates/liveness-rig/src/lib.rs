//! The liveness test rig, kept out of the engine crate (issue 40): what films a session in the
//! tests, in `facegate eval liveness` and in the examples, never what the service runs.
//!
//! - [`camera_model`]: the seeded family of test cameras (white balance, exposure, tone,
//!   delay, frame rate) the screen-light check must hold under.
//! - [`light_camera`]: the rendering camera that plays recorded footage and renders the
//!   screen's light on the scene (live face, print as a sheet, replay, injected streams).
//! - [`eval`]: the evaluation harness and sweeps of the liveness tests and examples, over
//!   `../shared/testdata` (frames extracted with ffmpeg).
//! - [`replay`]: recordings from disk, labelled segments, and the drivers that play them
//!   through a session (passive, scripted answers to challenges).
//!
//! Every figure measured through it is simulated light on real footage, and the docs say so.

pub mod camera_model;
mod error;
pub mod eval;
pub mod light_camera;
pub mod replay;

pub use error::RigError;
