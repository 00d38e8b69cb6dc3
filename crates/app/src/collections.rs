//! Collections and the faces indexed in them: create, list, read and delete, and indexing the
//! largest face of an image behind an optional quality filter.

use domain::{ExternalId, FaceModel, TenantId};
use uuid::Uuid;

use crate::dto::{CollectionDto, CollectionList, FaceDto, FaceList, IndexedFaceDto};
use crate::index_quality::{QualityFilter, quality_reasons};
use crate::{AppError, AppResult, FaceServices};

/// Longest collection `description`, in characters.
const MAX_DESCRIPTION_CHARS: usize = 1024;

/// One page of a listing: how many items, and the token of the previous page.
#[derive(Debug, Clone, Default)]
pub struct Page {
    pub limit: usize,
    pub after: Option<String>,
}

fn parse_id(field: &'static str, value: &str) -> AppResult<ExternalId> {
    Ok(ExternalId::parse(field, value)?)
}

/// Parses a `face_id`.
pub(crate) fn parse_face_id(value: &str) -> AppResult<Uuid> {
    Uuid::parse_str(value).map_err(|_| AppError::InvalidFaceId)
}

fn face_dto(face: domain::IndexedFace, collection: &ExternalId) -> IndexedFaceDto {
    IndexedFaceDto {
        face_id: face.id.to_string(),
        external_face_id: face.external_face_id.as_str().to_owned(),
        collection: collection.as_str().to_owned(),
        model: face.model_id,
        created_at: face.created_at,
        face: serde_json::from_str(&face.detail).unwrap_or(serde_json::Value::Null),
    }
}

impl FaceServices {
    /// A new collection of the tenant whose faces `face_model` embeds (default
    /// [`FaceModel::DEFAULT`]); the model never changes.
    pub fn do_create_collection(
        &self,
        tenant: TenantId,
        external_id: &str,
        description: &str,
        face_model: Option<FaceModel>,
    ) -> AppResult<CollectionDto> {
        let external_id = parse_id("external_id", external_id)?;
        if description.chars().count() > MAX_DESCRIPTION_CHARS {
            return Err(AppError::TextTooLong {
                field: "description",
                max: MAX_DESCRIPTION_CHARS,
            });
        }
        let created = self.search.store().create_collection(
            tenant,
            &external_id,
            description,
            face_model.unwrap_or(FaceModel::DEFAULT),
        )?;
        Ok(created.into())
    }

    /// One page of the tenant's collections, oldest first.
    pub fn do_list_collections(&self, tenant: TenantId, page: Page) -> AppResult<CollectionList> {
        let listed =
            self.search
                .store()
                .list_collections(tenant, page.limit, page.after.as_deref())?;
        Ok(CollectionList {
            collections: listed.items.into_iter().map(Into::into).collect(),
            next_token: listed.next_token,
        })
    }

    /// One collection with its face count.
    pub fn do_get_collection(
        &self,
        tenant: TenantId,
        external_id: &str,
    ) -> AppResult<CollectionDto> {
        let external_id = parse_id("external_id", external_id)?;
        Ok(self.search.store().collection(tenant, &external_id)?.into())
    }

    /// Deletes a collection with its faces and vectors.
    pub fn do_delete_collection(&self, tenant: TenantId, external_id: &str) -> AppResult<()> {
        let external_id = parse_id("external_id", external_id)?;
        Ok(self.search.delete_collection(tenant, &external_id)?)
    }

    /// Indexes the largest face of an image into a collection.
    pub fn do_index_face(
        &self,
        tenant: TenantId,
        collection: &str,
        external_face_id: &str,
        bytes: &[u8],
        filter: QualityFilter,
    ) -> AppResult<IndexedFaceDto> {
        let collection = parse_id("external_id", collection)?;
        let external_face_id = parse_id("external_face_id", external_face_id)?;
        // fail fast on an unknown collection before spending inference time
        let (_, face_model) = self
            .search
            .store()
            .collection_id_and_model(tenant, &collection)?;
        let (face, embedding) = {
            let _pass = self.gate.enter();
            self.embed_primary(face_model, bytes)?
        };
        if filter == QualityFilter::Auto {
            let reasons = quality_reasons(&face);
            if !reasons.is_empty() {
                return Err(AppError::FaceQualityTooLow { reasons });
            }
        }
        let detail = serde_json::to_string(&FaceDto::from(&face))
            .map_err(|e| AppError::Internal(e.to_string()))?;
        let stored = self.search.index_face(
            tenant,
            &collection,
            &external_face_id,
            &embedding.model,
            &embedding.vector,
            &detail,
        )?;
        Ok(face_dto(stored, &collection))
    }

    /// One page of a collection's faces, oldest first.
    pub fn do_list_faces(
        &self,
        tenant: TenantId,
        collection: &str,
        page: Page,
    ) -> AppResult<FaceList> {
        let collection = parse_id("external_id", collection)?;
        let listed = self.search.store().list_faces(
            tenant,
            &collection,
            page.limit,
            page.after.as_deref(),
        )?;
        Ok(FaceList {
            faces: listed
                .items
                .into_iter()
                .map(|f| face_dto(f, &collection))
                .collect(),
            next_token: listed.next_token,
        })
    }

    /// One indexed face.
    pub fn do_get_face(
        &self,
        tenant: TenantId,
        collection: &str,
        face_id: &str,
    ) -> AppResult<IndexedFaceDto> {
        let collection = parse_id("external_id", collection)?;
        let face_id = parse_face_id(face_id)?;
        let face = self.search.store().face(tenant, &collection, face_id)?;
        Ok(face_dto(face, &collection))
    }

    /// Deletes one indexed face with its vector.
    pub fn do_delete_face(
        &self,
        tenant: TenantId,
        collection: &str,
        face_id: &str,
    ) -> AppResult<()> {
        let collection = parse_id("external_id", collection)?;
        let face_id = parse_face_id(face_id)?;
        Ok(self.search.delete_face(tenant, &collection, face_id)?)
    }
}
