//! Validation of path and query parameters, with the API's error codes.

use std::collections::HashMap;

use domain::ExternalId;
use uuid::Uuid;

use crate::error::ApiError;

/// `max_faces` / `max_results` bounds: default 10, accepted 1..=4096.
pub const DEFAULT_MAX: usize = 10;
pub const MAX_MAX: usize = 4096;

pub fn external_id(field: &'static str, value: &str) -> Result<ExternalId, ApiError> {
    Ok(ExternalId::parse(field, value)?)
}

pub fn face_id(value: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(value)
        .map_err(|_| ApiError::bad_request("invalid_identifier", "face_id must be a UUID"))
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
            ApiError::bad_request(
                "invalid_parameter",
                format!("`{name}` must be an integer from 1 to {MAX_MAX}"),
            )
        })
}

/// Rejects query parameters a route does not know (typos should not pass silently).
pub fn only(query: &HashMap<String, String>, allowed: &[&str]) -> Result<(), ApiError> {
    match query.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(unknown) => Err(ApiError::bad_request(
            "unknown_parameter",
            format!("unknown query parameter `{unknown}`"),
        )),
        None => Ok(()),
    }
}

/// `max_faces` and `min_similarity` of the two search routes.
#[derive(Debug, Clone, Copy)]
pub struct SearchQuery {
    pub max_faces: usize,
    pub min_similarity: f32,
}

pub fn search_query(query: &HashMap<String, String>) -> Result<SearchQuery, ApiError> {
    only(query, &["max_faces", "min_similarity"])?;
    let min_similarity = crate::service::unit_value(
        "min_similarity",
        query.get("min_similarity").map(String::as_str),
        0.0,
    )?;
    Ok(SearchQuery {
        max_faces: count(query, "max_faces")?,
        min_similarity,
    })
}

/// `max_results` and `next_token` of the list routes.
pub fn page(query: &HashMap<String, String>) -> Result<(usize, Option<String>), ApiError> {
    only(query, &["max_results", "next_token"])?;
    Ok((
        count(query, "max_results")?,
        query.get("next_token").cloned(),
    ))
}
