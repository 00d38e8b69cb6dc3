//! Prints the screen-light evaluation at every screen-to-ambient ratio: the calibration half
//! (where the light check's cut-offs were set) and the held-back half, in passive mode, each
//! session exactly as `tests/screen_light` runs it (simulated light on real footage). Minutes
//! on 2 vCPU:
//! `cargo run -p facegate-liveness-engine --release --example screen_light_calibration`.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/screen_light/sessions.rs"]
mod sessions;

use common::eval_set::Half;
use facegate_liveness_engine::SessionMode;

fn main() {
    let ratios = [0.02, 0.05, 0.1, 0.2, 0.3];
    for half in [Half::Calibration, Half::HeldBack] {
        println!("== {half:?}");
        sessions::print_runs(&sessions::evaluate(
            half,
            &ratios,
            &[0.05, 0.3],
            SessionMode::Passive,
        ));
    }
}
