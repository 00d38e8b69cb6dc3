//! Shared helpers for the face engine's real-data tests: locating `models/` and the shared
//! test data, and loading the engine once per test binary.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use facegate_face_engine::{FaceEngine, Image};

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn testdata() -> PathBuf {
    std::env::var_os("FACEGATE_TESTDATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/testdata"))
}

pub fn engine() -> &'static FaceEngine {
    static ENGINE: OnceLock<FaceEngine> = OnceLock::new();
    ENGINE.get_or_init(|| FaceEngine::load(&repo_root().join("models")).expect("models load"))
}

pub fn load(relative: &str) -> Image {
    let bytes = std::fs::read(testdata().join(relative)).expect("test image readable");
    Image::decode(&bytes).expect("test image decodes")
}
