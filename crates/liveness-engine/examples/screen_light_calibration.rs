//! Prints the screen-light evaluation at every screen-to-ambient ratio: the calibration half
//! (where the light check's cut-offs were set) and the held-back half, in passive mode, each
//! session exactly as `tests/accuracy/screen_light.rs` runs it (simulated light on real
//! footage). Minutes on 2 vCPU:
//! `cargo run -p facegate-liveness-engine --release --example screen_light_calibration`.

use liveness_rig::eval;
use liveness_rig::eval::screen_light as sessions;

use eval::set::Half;
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
