//! The Face Services operations, synchronous and free of HTTP: handlers run them on the
//! blocking pool and map their results.

use domain::{ExternalId, TenantId};
use face_engine::compare::cosine_from_similarity;
use face_engine::{DetectOptions, Face, FaceEngine, Image};
use storage::search::FaceSearch;
use uuid::Uuid;

use crate::dto::{
    CompareResponse, DetectResponse, FaceDto, ImageSize, IndexedFaceDto, SearchHitDto,
    SearchResponse,
};
use crate::error::ApiError;
use crate::params::SearchQuery;

/// Default similarity threshold of compare (the spec's "solid match").
pub const DEFAULT_THRESHOLD: f32 = 0.65;

/// Quality gate applied when indexing with `quality_filter=auto` (the default).
pub const MIN_INDEX_FACE_SIZE: f32 = 40.0;
pub const MIN_INDEX_SHARPNESS: f32 = 0.25;
pub const MIN_INDEX_FRONTALNESS: f32 = 0.2;

fn decode(bytes: &[u8]) -> Result<Image, ApiError> {
    Ok(Image::decode(bytes)?)
}

pub fn detect(engine: &FaceEngine, bytes: &[u8]) -> Result<DetectResponse, ApiError> {
    let image = decode(bytes)?;
    let faces = engine.detect(&image, &DetectOptions::default())?;
    Ok(DetectResponse {
        faces: faces.iter().map(FaceDto::from).collect(),
        image: ImageSize {
            width: image.width(),
            height: image.height(),
        },
    })
}

/// The largest face of an image and its embedding.
fn embed_primary(
    engine: &FaceEngine,
    bytes: &[u8],
) -> Result<(Face, face_engine::Embedding), ApiError> {
    let image = decode(bytes)?;
    let face = engine.primary_face(&image)?;
    let embedding = engine.embed_face(&image, &face)?;
    Ok((face, embedding))
}

/// Compares the largest faces of two images; with `two_cores` the two images are read on two
/// threads at once (the caller holds two places of the inference gate), which halves the
/// latency of a compare on an idle server.
pub fn compare(
    engine: &FaceEngine,
    source: &[u8],
    target: &[u8],
    threshold: f32,
    two_cores: bool,
) -> Result<CompareResponse, ApiError> {
    let ((source_face, a), (target_face, b)) = if two_cores {
        std::thread::scope(|scope| {
            let target_side = scope.spawn(|| embed_primary(engine, target));
            let source_side = embed_primary(engine, source);
            let target_side = target_side
                .join()
                .unwrap_or_else(|_| Err(ApiError::internal("compare worker stopped")));
            Ok::<_, ApiError>((source_side?, target_side?))
        })?
    } else {
        (
            embed_primary(engine, source)?,
            embed_primary(engine, target)?,
        )
    };
    let similarity = engine.compare(&a, &b);
    Ok(CompareResponse {
        similarity,
        is_match: similarity >= threshold,
        threshold,
        source_face: (&source_face).into(),
        target_face: (&target_face).into(),
    })
}

/// Parses an optional threshold or similarity field in 0..1.
pub fn unit_value(field: &str, value: Option<&str>, default: f32) -> Result<f32, ApiError> {
    let Some(raw) = value else { return Ok(default) };
    raw.trim()
        .parse::<f32>()
        .ok()
        .filter(|v| (0.0..=1.0).contains(v))
        .ok_or_else(|| {
            ApiError::bad_request(
                "invalid_parameter",
                format!("`{field}` must be a number between 0 and 1"),
            )
        })
}

fn quality_reasons(face: &Face) -> Vec<&'static str> {
    let mut reasons = Vec::new();
    if face.bbox.width.min(face.bbox.height) < MIN_INDEX_FACE_SIZE {
        reasons.push("small_face");
    }
    if face.quality.sharpness < MIN_INDEX_SHARPNESS {
        reasons.push("blurry");
    }
    if face.quality.frontalness < MIN_INDEX_FRONTALNESS {
        reasons.push("extreme_pose");
    }
    reasons
}

pub fn face_dto(face: domain::IndexedFace, collection: &ExternalId) -> IndexedFaceDto {
    IndexedFaceDto {
        face_id: face.id.to_string(),
        external_face_id: face.external_face_id.as_str().to_owned(),
        collection: collection.as_str().to_owned(),
        model: face.model_id,
        created_at: face.created_at,
        face: serde_json::from_str(&face.detail).unwrap_or(serde_json::Value::Null),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn index_face(
    engine: &FaceEngine,
    search: &FaceSearch,
    tenant: TenantId,
    collection: &ExternalId,
    external_face_id: &ExternalId,
    bytes: &[u8],
    quality_filter: bool,
) -> Result<IndexedFaceDto, ApiError> {
    // fail fast on an unknown collection before spending inference time
    search.store().collection_id(tenant, collection)?;
    let (face, embedding) = embed_primary(engine, bytes)?;
    if quality_filter {
        let reasons = quality_reasons(&face);
        if !reasons.is_empty() {
            return Err(ApiError::new(
                actix_web::http::StatusCode::UNPROCESSABLE_ENTITY,
                "face_quality_too_low",
                format!("the face was not indexed: {}", reasons.join(", ")),
            ));
        }
    }
    let detail = serde_json::to_string(&FaceDto::from(&face))
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let stored = search.index_face(
        tenant,
        collection,
        external_face_id,
        &embedding.model,
        &embedding.vector,
        &detail,
    )?;
    Ok(face_dto(stored, collection))
}

/// The API's hits: calibrated similarity and `external_face_id`, best first.
fn hits(named: Vec<(domain::SearchHit, String)>) -> Vec<SearchHitDto> {
    named
        .into_iter()
        .map(|(hit, external_face_id)| SearchHitDto {
            face_id: hit.face_id.to_string(),
            external_face_id,
            similarity: face_engine::compare::similarity_from_cosine(hit.cosine),
        })
        .collect()
}

pub fn search_by_face(
    search: &FaceSearch,
    tenant: TenantId,
    collection: &ExternalId,
    face_id: Uuid,
    wanted: SearchQuery,
) -> Result<SearchResponse, ApiError> {
    let face = search.store().face(tenant, collection, face_id)?;
    let named = search.search_named(
        tenant,
        collection,
        &face.embedding,
        wanted.max_faces,
        cosine_from_similarity(wanted.min_similarity),
    )?;
    Ok(SearchResponse {
        searched_face_id: Some(face_id.to_string()),
        searched_face: None,
        hits: hits(named),
    })
}

pub fn search_by_image(
    engine: &FaceEngine,
    search: &FaceSearch,
    tenant: TenantId,
    collection: &ExternalId,
    bytes: &[u8],
    wanted: SearchQuery,
) -> Result<SearchResponse, ApiError> {
    search.store().collection_id(tenant, collection)?;
    let (face, embedding) = embed_primary(engine, bytes)?;
    let named = search.search_named(
        tenant,
        collection,
        &embedding.vector,
        wanted.max_faces,
        cosine_from_similarity(wanted.min_similarity),
    )?;
    Ok(SearchResponse {
        searched_face_id: None,
        searched_face: Some((&face).into()),
        hits: hits(named),
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use face_engine::FaceEngine;

    use super::compare;

    fn repo() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    #[test]
    fn a_compare_on_two_cores_answers_exactly_as_on_one() {
        let engine = FaceEngine::load(&repo().join("models")).expect("models");
        let photo = |path: &str| {
            std::fs::read(repo().join("../shared/testdata").join(path)).expect("test photo")
        };
        let (amy1, amy2) = (
            photo("identities/tv-cast/amy/amy1.png"),
            photo("identities/tv-cast/amy/amy2.png"),
        );
        let one = compare(&engine, &amy1, &amy2, 0.65, false).expect("compare");
        let two = compare(&engine, &amy1, &amy2, 0.65, true).expect("compare");
        assert_eq!(
            serde_json::to_value(&one).expect("json"),
            serde_json::to_value(&two).expect("json")
        );
        let no_face = photo("nonfaces/dogs.jpg");
        let (one, two) = (
            compare(&engine, &amy1, &no_face, 0.65, false).map(|_| ()),
            compare(&engine, &amy1, &no_face, 0.65, true).map(|_| ()),
        );
        assert_eq!(
            format!("{:?}", one.expect_err("no face")),
            format!("{:?}", two.expect_err("no face"))
        );
    }
}
