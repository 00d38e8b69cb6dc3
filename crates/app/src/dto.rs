//! Response bodies of the Face Services (v2) and compare (v1) API; field names are part of the
//! contract recorded in docs/api.md.

use face_engine::geometry::{BoundingBox, Point};
use face_engine::{Face, Keypoints, Pose, Quality};
use serde::Serialize;
use utoipa::ToSchema;

// The OpenAPI document's picture of `domain::FaceModel` (the domain crate names no OpenAPI
// types): the same names, held to it by a test.
/// A face model (embedder). Similarities are calibrated per model, so a threshold means the
/// same false-accept rate with either; embeddings of two models are never compared.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = FaceModel)]
pub enum FaceModelSchema {
    /// MobileFaceNet-style, 512-d; the model of every collection made before face models.
    FrFeature,
    /// OpenCV Zoo's SFace, 128-d; the default.
    Sface,
}

/// A box in image pixels: top-left corner and size.
#[derive(Debug, Serialize, ToSchema)]
pub struct BoxDto {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl From<&BoundingBox> for BoxDto {
    fn from(b: &BoundingBox) -> Self {
        Self {
            x: b.x,
            y: b.y,
            width: b.width,
            height: b.height,
        }
    }
}

/// A point in image pixels.
#[derive(Debug, Serialize, ToSchema)]
pub struct PointDto {
    pub x: f32,
    pub y: f32,
}

impl From<Point> for PointDto {
    fn from(p: Point) -> Self {
        Self { x: p.x, y: p.y }
    }
}

/// Six keypoints, named from the person's point of view (the person's right eye appears on
/// the image's left in an unmirrored photo).
#[derive(Debug, Serialize, ToSchema)]
pub struct LandmarksDto {
    pub right_eye: PointDto,
    pub left_eye: PointDto,
    pub nose_tip: PointDto,
    pub mouth_center: PointDto,
    pub right_ear: PointDto,
    pub left_ear: PointDto,
}

impl From<&Keypoints> for LandmarksDto {
    fn from(k: &Keypoints) -> Self {
        Self {
            right_eye: k.right_eye.into(),
            left_eye: k.left_eye.into(),
            nose_tip: k.nose_tip.into(),
            mouth_center: k.mouth_center.into(),
            right_ear: k.right_ear.into(),
            left_ear: k.left_ear.into(),
        }
    }
}

/// Head pose in degrees: yaw positive when the nose turns toward the image's right, pitch
/// positive when the head tilts up, roll positive when the eye line turns clockwise.
#[derive(Debug, Serialize, ToSchema)]
pub struct PoseDto {
    pub yaw: f32,
    pub pitch: f32,
    pub roll: f32,
}

impl From<&Pose> for PoseDto {
    fn from(p: &Pose) -> Self {
        Self {
            yaw: p.yaw,
            pitch: p.pitch,
            roll: p.roll,
        }
    }
}

/// Measured quality of the face region.
#[derive(Debug, Serialize, ToSchema)]
pub struct QualityDto {
    /// Focus in 0..1 from the variance of the Laplacian (0.5 is acceptable).
    pub sharpness: f32,
    /// Mean luma of the face box in 0..1.
    pub brightness: f32,
    /// Shorter side of the face box in pixels.
    pub face_size: f32,
    /// 1 for a frontal face, falling to 0 at 45° of yaw or pitch.
    pub frontalness: f32,
}

impl From<&Quality> for QualityDto {
    fn from(q: &Quality) -> Self {
        Self {
            sharpness: q.sharpness,
            brightness: q.brightness,
            face_size: q.face_size,
            frontalness: q.frontalness,
        }
    }
}

/// One detected face.
#[derive(Debug, Serialize, ToSchema)]
pub struct FaceDto {
    pub bounding_box: BoxDto,
    /// Detector confidence in 0..1.
    pub confidence: f32,
    pub landmarks: LandmarksDto,
    pub pose: PoseDto,
    pub quality: QualityDto,
}

impl From<&Face> for FaceDto {
    fn from(f: &Face) -> Self {
        Self {
            bounding_box: (&f.bbox).into(),
            confidence: f.score,
            landmarks: (&f.keypoints).into(),
            pose: (&f.pose).into(),
            quality: (&f.quality).into(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ImageSize {
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DetectResponse {
    pub faces: Vec<FaceDto>,
    pub image: ImageSize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CompareResponse {
    pub similarity: f32,
    pub is_match: bool,
    pub threshold: f32,
    /// The face model that embedded both faces.
    #[schema(value_type = FaceModelSchema)]
    pub face_model: domain::FaceModel,
    pub source_face: FaceDto,
    pub target_face: FaceDto,
}

/// v1 compare result: exactly the spec's fields.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompareV1Response {
    pub similarity: f32,
    pub is_match: bool,
    pub threshold: f32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CollectionDto {
    pub external_id: String,
    pub description: String,
    /// The face model that embeds every face of the collection (`fr_feature` or `sface`),
    /// fixed at creation.
    #[schema(value_type = FaceModelSchema)]
    pub face_model: domain::FaceModel,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face_count: Option<u64>,
    pub created_at: i64,
}

impl From<domain::Collection> for CollectionDto {
    fn from(c: domain::Collection) -> Self {
        Self {
            external_id: c.external_id.as_str().to_owned(),
            description: c.description,
            face_model: c.face_model,
            face_count: c.face_count,
            created_at: c.created_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CollectionList {
    pub collections: Vec<CollectionDto>,
    pub next_token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct IndexedFaceDto {
    pub face_id: String,
    pub external_face_id: String,
    pub collection: String,
    pub model: String,
    pub created_at: i64,
    /// Detection details recorded at indexing time (box, confidence, pose, quality).
    #[schema(value_type = FaceDto)]
    pub face: serde_json::Value,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FaceList {
    pub faces: Vec<IndexedFaceDto>,
    pub next_token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SearchHitDto {
    pub face_id: String,
    pub external_face_id: String,
    /// Calibrated similarity in 0..1 (same scale as compare).
    pub similarity: f32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SearchResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched_face_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched_face: Option<FaceDto>,
    pub hits: Vec<SearchHitDto>,
}

#[cfg(test)]
mod tests {
    use super::FaceModelSchema;

    #[test]
    fn the_documented_face_models_are_the_domains() {
        let documented = [FaceModelSchema::FrFeature, FaceModelSchema::Sface]
            .map(|m| serde_json::to_value(m).expect("json"));
        let domain = domain::FaceModel::ALL.map(|m| serde_json::to_value(m).expect("json"));
        assert_eq!(documented, domain);
    }
}
