//! Liveness with verify (issue 31): a managed session may be created with a reference image,
//! the customer's ID photo. Its face's embedding is kept (never the image) until the session
//! completes or expires; after a `pass`, the ICAO portrait is compared with it with the face
//! engine's compare, and the match goes into the result read with the API key and into the
//! webhook. The match is bound to the same live capture, so no face can be swapped between the
//! liveness check and the compare.

use base64::Engine as _;
use domain::{FaceMatch, FaceModel, Session};
use face_engine::{EngineError, Image};

use crate::{SessionError, SessionResult, SessionService};

/// Largest reference image after base64 decoding: the 8 MB of every Face Services upload.
pub const MAX_REFERENCE_BYTES: usize = 8 * 1024 * 1024;
/// Largest base64 text of a reference image (four characters per three bytes, padded).
pub const MAX_REFERENCE_BASE64: usize = MAX_REFERENCE_BYTES.div_ceil(3) * 4;

/// The match as the webhook carries it: numbers written as their shortest `f32` decimals
/// (0.65, not 0.6499999761581421), as the result does.
pub fn match_json(face_match: &FaceMatch) -> serde_json::Value {
    let decimal = |v: f32| v.to_string().parse::<f64>().unwrap_or(f64::from(v));
    serde_json::json!({
        "similarity": decimal(face_match.similarity),
        "is_match": face_match.is_match,
        "threshold": decimal(face_match.threshold),
    })
}

impl SessionService {
    /// The match threshold of a new session: `requested` when given (0..=1), else the
    /// deployment's compare threshold.
    pub(crate) fn match_threshold(&self, requested: Option<f32>) -> SessionResult<f32> {
        match requested {
            None => Ok(self.settings.compare_threshold),
            Some(t) if (0.0..=1.0).contains(&t) => Ok(t),
            Some(_) => Err(SessionError::InvalidMatchThreshold),
        }
    }

    /// The embedding by `model` of the face in a base64 reference image, validated as a Face
    /// Services upload is: size, format, pixels; no face is `ReferenceHasNoFace`. Runs
    /// inference: call it off the async workers.
    pub(crate) fn reference_embedding(
        &self,
        model: FaceModel,
        base64_image: &str,
    ) -> SessionResult<Vec<f32>> {
        if base64_image.len() > MAX_REFERENCE_BASE64 {
            return Err(SessionError::ReferenceTooLarge {
                max: MAX_REFERENCE_BYTES,
            });
        }
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(base64_image.trim())
            .map_err(|e| SessionError::InvalidReferenceImage(e.to_string()))?;
        if bytes.len() > MAX_REFERENCE_BYTES {
            return Err(SessionError::ReferenceTooLarge {
                max: MAX_REFERENCE_BYTES,
            });
        }
        let _pass = self.inference.enter();
        let image = Image::decode_with_limit(&bytes, self.settings.max_image_pixels)?;
        let face = match self.engine.primary_face(&image) {
            Err(EngineError::NoFace) => return Err(SessionError::ReferenceHasNoFace),
            other => other?,
        };
        Ok(self.engine.embed_face(model, &image, &face)?.vector)
    }

    /// The portrait of a passed session compared with its reference; `None` for a session
    /// created without one (or whose reference is gone). Runs inference.
    pub(crate) fn match_portrait(
        &self,
        session: &Session,
        portrait_jpeg: &[u8],
    ) -> SessionResult<Option<FaceMatch>> {
        if !session.has_reference {
            return Ok(None);
        }
        let Some((model, reference)) = self.store.session_reference_embedding(session.id)? else {
            return Ok(None);
        };
        let _pass = self.inference.enter();
        let portrait = Image::decode(portrait_jpeg)?;
        let face = self.engine.primary_face(&portrait)?;
        // the portrait is embedded by the model that embedded the reference
        let live = self.engine.embed_face(model, &portrait, &face)?;
        let reference = face_engine::Embedding {
            model: live.model.clone(),
            face_model: model,
            vector: reference,
        };
        let threshold = session
            .match_threshold
            .unwrap_or(self.settings.compare_threshold);
        Ok(Some(FaceMatch::new(
            self.engine.compare(&live, &reference)?,
            threshold,
        )))
    }
}
