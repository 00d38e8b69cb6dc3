//! Detect and compare: the largest face of an image, its embedding, and the similarity of two.

use face_engine::{DetectOptions, Embedding, Face, FaceModel};

use crate::dto::{CompareResponse, DetectResponse, FaceDto, ImageSize};
use crate::{AppResult, DEFAULT_THRESHOLD, FaceServices};

impl FaceServices {
    /// The faces of an image, largest first.
    pub fn do_detect(&self, bytes: &[u8]) -> AppResult<DetectResponse> {
        let _pass = self.gate.enter();
        let image = self.decode(bytes)?;
        let faces = self.engine.detect(&image, &DetectOptions::default())?;
        Ok(DetectResponse {
            faces: faces.iter().map(FaceDto::from).collect(),
            image: ImageSize {
                width: image.width(),
                height: image.height(),
            },
        })
    }

    /// The similarity of the largest faces of two images, both embedded by `face_model`
    /// (default [`FaceModel::DEFAULT`]), a match at `threshold` or above (default
    /// [`DEFAULT_THRESHOLD`]). When the gate has a second place free, the two images are read
    /// on two cores at once, which halves the latency on an idle server; the answer is the
    /// same either way.
    pub fn do_compare(
        &self,
        source: &[u8],
        target: &[u8],
        threshold: Option<f32>,
        face_model: Option<FaceModel>,
    ) -> AppResult<CompareResponse> {
        let _pass = self.gate.enter();
        let spare = self.gate.try_enter();
        let request = CompareRequest {
            threshold,
            face_model: face_model.unwrap_or(FaceModel::DEFAULT),
            two_cores: spare.is_some(),
        };
        self.compare(source, target, request)
    }

    /// [`FaceServices::do_compare`] on one or two threads (the caller holds the gate).
    fn compare(
        &self,
        source: &[u8],
        target: &[u8],
        request: CompareRequest,
    ) -> AppResult<CompareResponse> {
        let threshold = request.threshold.unwrap_or(DEFAULT_THRESHOLD);
        let model = request.face_model;
        let ((source_face, a), (target_face, b)) = if request.two_cores {
            // rayon's long-lived workers, not a thread spawned per compare: a fresh thread
            // starts with cold allocator arenas and tract scratch, which cost more than a side
            let (source_side, target_side) = rayon::join(
                || self.embed_primary(model, source),
                || self.embed_primary(model, target),
            );
            (source_side?, target_side?)
        } else {
            (
                self.embed_primary(model, source)?,
                self.embed_primary(model, target)?,
            )
        };
        let similarity = self.engine.compare(&a, &b)?;
        Ok(CompareResponse {
            similarity,
            is_match: similarity >= threshold,
            threshold,
            face_model: model,
            source_face: (&source_face).into(),
            target_face: (&target_face).into(),
        })
    }

    /// The largest face of an image and its embedding by `model` (the caller holds the gate).
    pub(crate) fn embed_primary(
        &self,
        model: FaceModel,
        bytes: &[u8],
    ) -> AppResult<(Face, Embedding)> {
        let image = self.decode(bytes)?;
        let face = self.engine.primary_face(&image)?;
        let embedding = self.engine.embed_face(model, &image, &face)?;
        Ok((face, embedding))
    }
}

/// One compare's options, resolved.
#[derive(Debug, Clone, Copy)]
struct CompareRequest {
    threshold: Option<f32>,
    face_model: FaceModel,
    /// Embed the two images on two cores at once.
    two_cores: bool,
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use face_engine::{FaceEngine, FaceModel};

    use super::CompareRequest;
    use crate::{FaceServices, InferenceGate, UploadLimits};

    fn request(face_model: FaceModel, two_cores: bool) -> CompareRequest {
        CompareRequest {
            threshold: None,
            face_model,
            two_cores,
        }
    }

    fn repo() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    fn services(dir: &tempfile::TempDir, limits: UploadLimits) -> FaceServices {
        let engine = Arc::new(FaceEngine::load(&repo().join("models")).expect("models"));
        let url = dir.path().join("app.db").to_string_lossy().into_owned();
        let store =
            storage::Store::open(&url, storage::ServerSecret::new(b"app".to_vec())).expect("store");
        let index = Arc::new(storage::memory_index::MemoryVectorIndex::new(store.clone()));
        let search = Arc::new(storage::search::FaceSearch::new(store, index));
        FaceServices::new(engine, search, Arc::new(InferenceGate::new(2)), limits)
    }

    fn photo(path: &str) -> Vec<u8> {
        std::fs::read(repo().join("../shared/testdata").join(path)).expect("test photo")
    }

    #[test]
    fn a_compare_on_two_cores_answers_exactly_as_on_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let app = services(&dir, UploadLimits::default());
        let (amy1, amy2) = (
            photo("identities/tv-cast/amy/amy1.png"),
            photo("identities/tv-cast/amy/amy2.png"),
        );
        for model in FaceModel::ALL {
            let one = app
                .compare(&amy1, &amy2, request(model, false))
                .expect("compare");
            let two = app
                .compare(&amy1, &amy2, request(model, true))
                .expect("compare");
            assert_eq!(one.threshold, crate::DEFAULT_THRESHOLD);
            assert_eq!(one.face_model, model);
            assert!(one.is_match, "{model}: {}", one.similarity);
            assert_eq!(
                serde_json::to_value(&one).expect("json"),
                serde_json::to_value(&two).expect("json")
            );
        }
        let no_face = photo("nonfaces/dogs.jpg");
        let (one, two) = (
            app.compare(&amy1, &no_face, request(FaceModel::DEFAULT, false))
                .map(|_| ()),
            app.compare(&amy1, &no_face, request(FaceModel::DEFAULT, true))
                .map(|_| ()),
        );
        assert_eq!(
            format!("{:?}", one.expect_err("no face")),
            format!("{:?}", two.expect_err("no face"))
        );
    }

    #[test]
    fn every_image_read_is_held_to_the_pixel_limit() {
        let dir = tempfile::tempdir().expect("temp dir");
        let app = services(
            &dir,
            UploadLimits {
                max_image_pixels: 10_000,
            },
        );
        let amy = photo("identities/tv-cast/amy/amy1.png");
        let too_many = |e: crate::AppError| {
            matches!(
                e,
                crate::AppError::Engine(face_engine::EngineError::TooManyPixels { .. })
            )
        };
        assert!(too_many(app.do_detect(&amy).expect_err("over the limit")));
        assert!(too_many(
            app.do_compare(&amy, &amy, None, None)
                .expect_err("over the limit")
        ));
    }
}
