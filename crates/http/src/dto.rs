//! Response bodies of the Face Services (v2) and compare (v1) API; field names are part of the
//! contract recorded in docs/api.md.

use face_engine::geometry::BoundingBox;
use face_engine::{Face, Keypoints, Pose, Quality};
use serde::Serialize;

#[derive(Debug, Serialize)]
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

#[derive(Debug, Serialize)]
pub struct FaceDto {
    pub bounding_box: BoxDto,
    /// Detector confidence in 0..1.
    pub confidence: f32,
    pub landmarks: Keypoints,
    pub pose: Pose,
    pub quality: Quality,
}

impl From<&Face> for FaceDto {
    fn from(f: &Face) -> Self {
        Self {
            bounding_box: (&f.bbox).into(),
            confidence: f.score,
            landmarks: f.keypoints,
            pose: f.pose,
            quality: f.quality,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct ImageSize {
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Serialize)]
pub struct DetectResponse {
    pub faces: Vec<FaceDto>,
    pub image: ImageSize,
}

#[derive(Debug, Serialize)]
pub struct CompareResponse {
    pub similarity: f32,
    pub is_match: bool,
    pub threshold: f32,
    pub source_face: FaceDto,
    pub target_face: FaceDto,
}

/// v1 compare result: exactly the spec's fields.
#[derive(Debug, Serialize)]
pub struct CompareV1Response {
    pub similarity: f32,
    pub is_match: bool,
    pub threshold: f32,
}

#[derive(Debug, Serialize)]
pub struct CollectionDto {
    pub external_id: String,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face_count: Option<u64>,
    pub created_at: i64,
}

impl From<domain::Collection> for CollectionDto {
    fn from(c: domain::Collection) -> Self {
        Self {
            external_id: c.external_id.as_str().to_owned(),
            description: c.description,
            face_count: c.face_count,
            created_at: c.created_at,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct CollectionList {
    pub collections: Vec<CollectionDto>,
    pub next_token: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct IndexedFaceDto {
    pub face_id: String,
    pub external_face_id: String,
    pub collection: String,
    pub model: String,
    pub created_at: i64,
    /// Detection details recorded at indexing time (box, confidence, pose, quality).
    pub face: serde_json::Value,
}

#[derive(Debug, Serialize)]
pub struct FaceList {
    pub faces: Vec<IndexedFaceDto>,
    pub next_token: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SearchHitDto {
    pub face_id: String,
    pub external_face_id: String,
    /// Calibrated similarity in 0..1 (same scale as compare).
    pub similarity: f32,
}

#[derive(Debug, Serialize)]
pub struct SearchResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched_face_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched_face: Option<FaceDto>,
    pub hits: Vec<SearchHitDto>,
}
