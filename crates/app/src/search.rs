//! 1:N search of a collection: by an indexed face, or by the largest face of a new image
//! (which is not indexed, and is embedded by the collection's face model). Similarities and
//! `min_similarity` are calibrated by the collection's model.

use domain::{ExternalId, FaceModel, TenantId};
use face_engine::compare::{cosine_from_similarity, similarity_from_cosine};

use crate::collections::parse_face_id;
use crate::dto::{SearchHitDto, SearchResponse};
use crate::{AppResult, FaceServices};

/// How many hits, and the lowest similarity a hit may have.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchQuery {
    pub max_faces: usize,
    pub min_similarity: f32,
}

/// The API's hits: similarity calibrated for `model` and `external_face_id`, best first.
fn hits(model: FaceModel, named: Vec<(domain::SearchHit, String)>) -> Vec<SearchHitDto> {
    named
        .into_iter()
        .map(|(hit, external_face_id)| SearchHitDto {
            face_id: hit.face_id.to_string(),
            external_face_id,
            similarity: similarity_from_cosine(model, hit.cosine),
        })
        .collect()
}

impl FaceServices {
    /// The faces of a collection most like one of its own faces.
    pub fn do_search_by_face(
        &self,
        tenant: TenantId,
        collection: &str,
        face_id: &str,
        wanted: SearchQuery,
    ) -> AppResult<SearchResponse> {
        let collection = ExternalId::parse("external_id", collection)?;
        let face_id = parse_face_id(face_id)?;
        let (_, model) = self
            .search
            .store()
            .collection_id_and_model(tenant, &collection)?;
        let face = self.search.store().face(tenant, &collection, face_id)?;
        let named = self.search.search_named(
            tenant,
            &collection,
            &face.embedding,
            wanted.max_faces,
            cosine_from_similarity(model, wanted.min_similarity),
        )?;
        Ok(SearchResponse {
            searched_face_id: Some(face_id.to_string()),
            searched_face: None,
            hits: hits(model, named),
        })
    }

    /// The faces of a collection most like the largest face of an image.
    pub fn do_search_by_image(
        &self,
        tenant: TenantId,
        collection: &str,
        bytes: &[u8],
        wanted: SearchQuery,
    ) -> AppResult<SearchResponse> {
        let collection = ExternalId::parse("external_id", collection)?;
        let (_, model) = self
            .search
            .store()
            .collection_id_and_model(tenant, &collection)?;
        let (face, embedding) = {
            let _pass = self.gate.enter();
            self.embed_primary(model, bytes)?
        };
        let named = self.search.search_named(
            tenant,
            &collection,
            &embedding.vector,
            wanted.max_faces,
            cosine_from_similarity(model, wanted.min_similarity),
        )?;
        Ok(SearchResponse {
            searched_face_id: None,
            searched_face: Some((&face).into()),
            hits: hits(model, named),
        })
    }
}
