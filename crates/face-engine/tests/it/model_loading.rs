//! Model loading refuses a tampered or missing file with an error naming it.

use crate::common;

use facegate_face_engine::{EngineError, FaceEngine};

fn copy_models() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for entry in std::fs::read_dir(common::repo_root().join("models")).expect("models dir") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            std::fs::copy(&path, dir.path().join(path.file_name().expect("name"))).expect("copy");
        }
    }
    dir
}

#[test]
fn a_tampered_model_is_refused_by_checksum() {
    let dir = copy_models();
    let target = dir.path().join("fr_liveness.onnx");
    let mut bytes = std::fs::read(&target).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    std::fs::write(&target, bytes).expect("write");
    match FaceEngine::load(dir.path()) {
        Err(EngineError::ModelChecksum { file, .. }) => assert_eq!(file, "fr_liveness.onnx"),
        other => panic!("expected a checksum error, got {other:?}"),
    }
}

#[test]
fn a_missing_model_is_refused_by_name() {
    let dir = copy_models();
    std::fs::remove_file(dir.path().join("face_landmark.onnx")).expect("remove");
    match FaceEngine::load(dir.path()) {
        Err(EngineError::ModelMissing { path }) => {
            assert!(path.ends_with("face_landmark.onnx"), "{path}")
        }
        other => panic!("expected a missing-model error, got {other:?}"),
    }
    assert!(matches!(
        FaceEngine::load(&dir.path().join("nowhere")),
        Err(EngineError::Manifest(_))
    ));
}

#[test]
fn the_embedded_models_are_the_shipped_ones() {
    let embedded = FaceEngine::load_embedded().expect("embedded models load and verify");
    let shipped = FaceEngine::load(&common::repo_root().join("models")).expect("models/");
    assert_eq!(embedded.embedder_id(), shipped.embedder_id());
    assert!(embedded.embedder_id().starts_with("fr_feature.onnx@"));
}
