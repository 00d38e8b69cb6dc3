//! Fuzzes the untrusted-input path: decode arbitrary bytes, then detect faces on whatever
//! decodes. Any panic, abort or out-of-memory is a finding.
#![no_main]

use std::sync::OnceLock;

use facegate_face_engine::{DetectMode, DetectOptions, FaceEngine, Image};
use libfuzzer_sys::fuzz_target;

fn engine() -> &'static FaceEngine {
    static ENGINE: OnceLock<FaceEngine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
        FaceEngine::load(&models).expect("models load")
    })
}

fuzz_target!(|data: &[u8]| {
    // 4 MP keeps each execution short; the limit itself is what is being exercised.
    let Ok(image) = Image::decode_with_limit(data, 4_000_000) else { return };
    for mode in [DetectMode::Selfie, DetectMode::All] {
        let options = DetectOptions { mode, ..DetectOptions::default() };
        if let Ok(faces) = engine().detect(&image, &options) {
            if let Some(face) = faces.first() {
                let _ = engine().landmarks(&image, face);
            }
        }
    }
});
