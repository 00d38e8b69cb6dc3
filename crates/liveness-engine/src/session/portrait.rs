//! Choosing the portrait frame: every analysed face is scored cheaply (frontal, eyes open,
//! mouth closed, sharp, confidently detected) and the bytes of the best [`KEPT_FRAMES`] frames
//! are kept. At the verdict the kept frames' portraits are made best cheap score first, and the
//! first that meets every ICAO requirement is the portrait: the frames after it are not made
//! (each costs a decode, two detector runs, a mesh and a warp on the verdict's critical path,
//! issue 42). When none meets them all, the one that meets the most (then the best
//! `photo_quality_score`) is. Only the portrait kept is encoded as a JPEG.

use face_engine::{EngineResult, Face, FaceEngine, Image, PhotoQuality, Portrait, PortraitDraft};

use crate::observation::FaceObservation;

/// Frames kept as portrait candidates (each one made at the verdict costs a decode, two
/// detector runs, a mesh and a warp; the one kept is also encoded).
pub const KEPT_FRAMES: usize = 3;

#[derive(Debug, Default)]
pub(super) struct PortraitCandidate {
    /// `(cheap score, JPEG, the frame's primary face)`, best first.
    best: Vec<(f32, Vec<u8>, Option<Face>)>,
}

impl PortraitCandidate {
    /// Keeps the frame `jpeg` when its `face` scores among the best; `primary_face` is the
    /// frame's `FrameObservation::primary_face`, so the portrait need not detect it again.
    pub(super) fn consider(
        &mut self,
        face: &FaceObservation,
        primary_face: Option<Face>,
        jpeg: &[u8],
    ) {
        let frontal = (1.0 - face.pose.yaw.abs() / 30.0) * (1.0 - face.pose.pitch.abs() / 40.0);
        let eyes = (face.eye_openness / 0.25).min(1.0);
        let mouth = 1.0 - (face.mouth_open / 0.2).min(1.0);
        let score = frontal.max(0.0) * eyes * mouth * face.sharpness * face.detector_score;
        if self.best.len() == KEPT_FRAMES
            && self
                .best
                .last()
                .is_some_and(|(worst, _, _)| score <= *worst)
        {
            return;
        }
        let at = self.best.partition_point(|(kept, _, _)| *kept >= score);
        self.best.insert(at, (score, jpeg.to_vec(), primary_face));
        self.best.truncate(KEPT_FRAMES);
    }

    /// The ICAO portrait of the first kept frame (best cheap score first) that meets every
    /// requirement, else of the one that meets the most; `None` when no frame had a face (the
    /// first frame's error when none gave a portrait).
    pub(super) fn render(
        &self,
        engine: &FaceEngine,
        max_pixels: u64,
    ) -> Option<EngineResult<Portrait>> {
        let mut first_error = None;
        let mut chosen: Option<PortraitDraft> = None;
        for (_, jpeg, primary_face) in &self.best {
            let made = Image::decode_with_limit(jpeg, max_pixels).and_then(|image| {
                let face = match primary_face {
                    Some(face) => face.clone(),
                    None => engine.primary_face(&image)?,
                };
                engine.portrait_draft(&image, &face)
            });
            match made {
                Ok(draft) => {
                    // meeting them all beats every frame before it, which did not
                    let meets_all = draft.quality().meets_every_requirement();
                    if chosen
                        .as_ref()
                        .is_none_or(|best| better(draft.quality(), best.quality()))
                    {
                        chosen = Some(draft);
                    }
                    if meets_all {
                        break;
                    }
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match (chosen, first_error) {
            (Some(draft), _) => Some(draft.encode()),
            (None, Some(e)) => Some(Err(e)),
            (None, None) => None,
        }
    }
}

fn better(candidate: &PhotoQuality, best: &PhotoQuality) -> bool {
    let met = |q: &PhotoQuality| q.requirements.iter().filter(|c| c.passed).count();
    (met(candidate), candidate.photo_quality_score) > (met(best), best.photo_quality_score)
}
