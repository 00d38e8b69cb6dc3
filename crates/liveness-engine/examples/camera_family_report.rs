//! Prints the camera-family evaluation (`tests/camera_family`) for docs/accuracy.md: both
//! halves with every family drawn, then under each family alone (a leave-one-model-out view:
//! a rule that holds only on the families it was tuned with shows up here), each session
//! exactly as the tests run it (simulated light and cameras on real footage). Many minutes on
//! 2 vCPU: `cargo run -p facegate-liveness-engine --release --example camera_family_report`.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/camera_family/family.rs"]
mod family;

use common::eval_set::Half;
use common::in_parallel;
use liveness_rig::camera_model::CameraFamily;

fn main() {
    for half in [Half::Calibration, Half::HeldBack] {
        let jobs = family::jobs(half);
        let runs = in_parallel(&jobs, |job| family::run(job, &CameraFamily::ALL, "family"));
        family::print_runs(&format!("{half:?}, every family"), &runs);
        for alone in CameraFamily::ALL {
            // the salt names the family as the report always has, so the draws stay the same
            let runs = in_parallel(&jobs, |job| {
                family::run(job, &[alone], &format!("held out {}", alone.name()))
            });
            family::print_runs(&format!("{half:?}, {} only", alone.name()), &runs);
        }
    }
}
