//! Validation of path and query parameters, with the API's error codes.

use std::collections::HashMap;

use app::{Page, SearchQuery};

use crate::error::{ApiError, Code};

/// `max_faces` / `max_results` bounds: default 10, accepted 1..=4096.
pub const DEFAULT_MAX: usize = 10;
pub const MAX_MAX: usize = 4096;

/// An optional number in 0..1 from a form or query field (`threshold`, `min_similarity`).
pub fn unit_value(field: &str, value: Option<&str>) -> Result<Option<f32>, ApiError> {
    let Some(raw) = value else { return Ok(None) };
    raw.trim()
        .parse::<f32>()
        .ok()
        .filter(|v| (0.0..=1.0).contains(v))
        .map(Some)
        .ok_or_else(|| {
            ApiError::new(
                Code::InvalidParameter,
                format!("`{field}` must be a number between 0 and 1"),
            )
        })
}

/// An optional `face_model` (a form field or a JSON member): one of the shipped models, or
/// 400 `invalid_face_model` listing them.
pub fn face_model(value: Option<&str>) -> Result<Option<domain::FaceModel>, ApiError> {
    let Some(raw) = value else { return Ok(None) };
    domain::FaceModel::parse(raw.trim())
        .map(Some)
        .ok_or_else(|| {
            ApiError::new(
                Code::InvalidFaceModel,
                format!(
                    "`face_model` must be one of: {}",
                    domain::FaceModel::names()
                ),
            )
        })
}

/// A bounded count from the query string.
pub fn count(query: &HashMap<String, String>, name: &str) -> Result<usize, ApiError> {
    let Some(raw) = query.get(name) else {
        return Ok(DEFAULT_MAX);
    };
    raw.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_MAX).contains(n))
        .ok_or_else(|| {
            ApiError::new(
                Code::InvalidParameter,
                format!("`{name}` must be an integer from 1 to {MAX_MAX}"),
            )
        })
}

/// Rejects query parameters a route does not know (typos should not pass silently).
pub fn only(query: &HashMap<String, String>, allowed: &[&str]) -> Result<(), ApiError> {
    match query.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(unknown) => Err(ApiError::new(
            Code::UnknownParameter,
            format!("unknown query parameter `{unknown}`"),
        )),
        None => Ok(()),
    }
}

/// `max_faces` and `min_similarity` of the two search routes.
pub fn search_query(query: &HashMap<String, String>) -> Result<SearchQuery, ApiError> {
    only(query, &["max_faces", "min_similarity"])?;
    let min_similarity = unit_value(
        "min_similarity",
        query.get("min_similarity").map(String::as_str),
    )?
    .unwrap_or(0.0);
    Ok(SearchQuery {
        max_faces: count(query, "max_faces")?,
        min_similarity,
    })
}

/// `max_results` and `next_token` of the list routes.
pub fn page(query: &HashMap<String, String>) -> Result<Page, ApiError> {
    only(query, &["max_results", "next_token"])?;
    Ok(Page {
        limit: count(query, "max_results")?,
        after: query.get("next_token").cloned(),
    })
}
