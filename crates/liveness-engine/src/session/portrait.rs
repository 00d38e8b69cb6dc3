//! Choosing the portrait frame: every analysed face is scored (frontal, eyes open, mouth
//! closed, sharp, confidently detected) and only the best frame's bytes are kept.

use face_engine::{EngineResult, FaceEngine, Image, Portrait};

use crate::observation::FaceObservation;

#[derive(Debug, Default)]
pub(super) struct PortraitCandidate {
    best: Option<(f32, Vec<u8>)>,
}

impl PortraitCandidate {
    pub(super) fn consider(&mut self, face: &FaceObservation, jpeg: &[u8]) {
        let frontal = (1.0 - face.pose.yaw.abs() / 30.0) * (1.0 - face.pose.pitch.abs() / 40.0);
        let eyes = (face.eye_openness / 0.25).min(1.0);
        let mouth = 1.0 - (face.mouth_open / 0.2).min(1.0);
        let score = frontal.max(0.0) * eyes * mouth * face.sharpness * face.detector_score;
        if self.best.as_ref().is_none_or(|(best, _)| score > *best) {
            self.best = Some((score, jpeg.to_vec()));
        }
    }

    /// The ICAO portrait of the kept frame, if any frame had a face.
    pub(super) fn render(
        &self,
        engine: &FaceEngine,
        max_pixels: u64,
    ) -> Option<EngineResult<Portrait>> {
        let (_, jpeg) = self.best.as_ref()?;
        Some(
            Image::decode_with_limit(jpeg, max_pixels).and_then(|image| {
                let face = engine.primary_face(&image)?;
                engine.portrait(&image, &face)
            }),
        )
    }
}
