//! Prints the held-back evaluation's calibration half (`tests/accuracy/held_back.rs`), on which the
//! liveness cut-offs were set: every case passive and a few attacks per class active, each
//! session exactly as the tests run it (simulated light on real footage). About 6 minutes on
//! 2 vCPU: `cargo run -p facegate-liveness-engine --release --example held_back_calibration`.

use liveness_rig::eval;
use liveness_rig::eval::held_back as sweep;

use eval::set::Half;

fn main() {
    sweep::table(&sweep::evaluate(&sweep::jobs(Half::Calibration)));
}
