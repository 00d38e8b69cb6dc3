//! Collections of indexed reference faces, scoped to a tenant.

use serde::Serialize;
use uuid::Uuid;

use crate::UnixMillis;
use crate::face_model::FaceModel;
use crate::ids::{ExternalId, TenantId};

/// A named set of indexed faces (`external_id` is unique within its tenant).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Collection {
    pub id: Uuid,
    pub tenant_id: TenantId,
    pub external_id: ExternalId,
    pub description: String,
    /// The embedder of every face indexed in it, fixed at creation.
    pub face_model: FaceModel,
    pub created_at: UnixMillis,
    /// Number of faces, when the query counted them.
    pub face_count: Option<u64>,
}

/// A face stored in a collection with the embedding that search uses.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexedFace {
    pub id: Uuid,
    pub tenant_id: TenantId,
    pub collection_id: Uuid,
    pub external_face_id: ExternalId,
    /// Id of the embedder that produced `embedding`; vectors of different models never mix.
    pub model_id: String,
    #[serde(skip)]
    pub embedding: Vec<f32>,
    /// Detection details kept for the caller (box, pose, quality) as JSON text.
    pub detail: String,
    pub created_at: UnixMillis,
}
