//! Model loading refuses a tampered or missing file with an error naming it.

use crate::common;

use facegate_face_engine::{EngineError, FaceEngine, FaceModel};

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
    for model in FaceModel::ALL {
        assert_eq!(embedded.embedder_id(model), shipped.embedder_id(model));
    }
    assert!(
        embedded
            .embedder_id(FaceModel::FrFeature)
            .starts_with("fr_feature.onnx@")
    );
    assert!(
        embedded
            .embedder_id(FaceModel::Sface)
            .starts_with("face_recognition_sface.onnx@")
    );
}

#[test]
fn an_embedder_of_another_width_stops_loading_with_its_name() {
    // the 512-wide fr_feature file put in SFace's place, with its own (correct) checksum
    let dir = copy_models();
    let manifest = dir.path().join("manifest.toml");
    let text = std::fs::read_to_string(&manifest).expect("manifest");
    let sface = FaceEngine::load(&common::repo_root().join("models"))
        .expect("models")
        .embedder_id(FaceModel::Sface)
        .to_owned();
    assert!(sface.starts_with("face_recognition_sface.onnx@"));
    let fr_feature_sha =
        facegate_face_engine::sha256_file(&dir.path().join("fr_feature.onnx")).expect("sha256");
    let sface_sha =
        facegate_face_engine::sha256_file(&dir.path().join("face_recognition_sface.onnx"))
            .expect("sha256");
    std::fs::copy(
        dir.path().join("fr_feature.onnx"),
        dir.path().join("face_recognition_sface.onnx"),
    )
    .expect("copy");
    std::fs::write(&manifest, text.replace(&sface_sha, &fr_feature_sha)).expect("manifest");
    match FaceEngine::load(dir.path()) {
        Err(EngineError::EmbedderWidth {
            file,
            face_model,
            expected,
            actual,
        }) => {
            assert_eq!(file, "face_recognition_sface.onnx");
            assert_eq!((face_model, expected, actual), ("sface", 128, 512));
        }
        other => panic!("expected an embedder-width error, got {other:?}"),
    }
}
