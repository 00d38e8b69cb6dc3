//! Prints the keypoint pose and the mesh pose of the primary face of each file, to check the
//! two estimates against each other. Usage: pose FILE...

use facegate_face_engine::{FaceEngine, Image};

fn main() {
    let models = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    for path in std::env::args().skip(1) {
        let Ok(img) = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| Image::decode(&b).map_err(|e| e.to_string()))
        else {
            continue;
        };
        let Ok(face) = engine.primary_face(&img) else {
            continue;
        };
        let kp = face.pose;
        let Ok(meshed) = engine.with_landmarks(&img, face) else {
            continue;
        };
        println!(
            "{path}: keypoints yaw {:.0} pitch {:.0} roll {:.0} | mesh yaw {:.0} pitch {:.0} roll {:.0}",
            kp.yaw, kp.pitch, kp.roll, meshed.pose.yaw, meshed.pose.pitch, meshed.pose.roll
        );
    }
}
