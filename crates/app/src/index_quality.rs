//! The quality gate of indexing: whether a face is refused (`quality_filter=auto`, the
//! default) and, when it is, why, as stable reason names.

use face_engine::Face;

/// Smallest face side indexed under `auto`, in pixels.
const MIN_INDEX_FACE_SIZE: f32 = 40.0;
/// Lowest sharpness indexed under `auto`.
const MIN_INDEX_SHARPNESS: f32 = 0.25;
/// Lowest frontalness indexed under `auto`.
const MIN_INDEX_FRONTALNESS: f32 = 0.2;

/// Whether indexing refuses small, blurry or turned faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QualityFilter {
    /// Refuse them (`face_quality_too_low`, with the reasons).
    Auto,
    /// Index any face.
    None,
}

impl QualityFilter {
    /// The filter a form names (`auto`, `none`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "auto" => Some(Self::Auto),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

/// Why `auto` refused a face (the names the error message lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QualityReason {
    /// The face is smaller than 40 pixels on a side.
    SmallFace,
    /// The face's sharpness is under 0.25.
    Blurry,
    /// The face's frontalness is under 0.2 (turned far from the camera).
    ExtremePose,
}

impl QualityReason {
    /// Its stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            QualityReason::SmallFace => "small_face",
            QualityReason::Blurry => "blurry",
            QualityReason::ExtremePose => "extreme_pose",
        }
    }
}

impl std::fmt::Display for QualityReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every reason `auto` has to refuse `face` (none: it is indexed).
pub(crate) fn quality_reasons(face: &Face) -> Vec<QualityReason> {
    let mut reasons = Vec::new();
    if face.bbox.width.min(face.bbox.height) < MIN_INDEX_FACE_SIZE {
        reasons.push(QualityReason::SmallFace);
    }
    if face.quality.sharpness < MIN_INDEX_SHARPNESS {
        reasons.push(QualityReason::Blurry);
    }
    if face.quality.frontalness < MIN_INDEX_FRONTALNESS {
        reasons.push(QualityReason::ExtremePose);
    }
    reasons
}
