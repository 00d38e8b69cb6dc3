//! The query parameters of the routes that take them, typed (one struct per route family,
//! which the OpenAPI document is generated from), and their validation with the API's error
//! codes.

use crate::app::{Page, SearchQuery};
use actix_web::error::QueryPayloadError;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::{ApiError, Code};

/// `max_faces` / `max_results` bounds: default 10, accepted 1..=4096 (the parameters' structs
/// below state the same in the document; a test holds them together).
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
fn count(name: &str, value: Option<&str>) -> Result<usize, ApiError> {
    let Some(raw) = value else {
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

/// The answer to a query string that does not deserialise into a route's parameters: a name
/// the route does not take is `unknown_parameter` (typos should not pass silently), anything
/// else (a name given twice) `invalid_parameter`.
pub fn query_error(error: &QueryPayloadError) -> ApiError {
    let QueryPayloadError::Deserialize(cause) = error else {
        return ApiError::new(Code::InvalidParameter, error.to_string());
    };
    let text = cause.to_string();
    match text.strip_prefix("unknown field `") {
        Some(rest) => {
            let name = rest.split('`').next().unwrap_or_default();
            ApiError::new(
                Code::UnknownParameter,
                format!("unknown query parameter `{name}`"),
            )
        }
        None => ApiError::new(Code::InvalidParameter, text),
    }
}

/// `max_faces` and `min_similarity` of the two search routes.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// Hits to return, 1-4096 (default 10)
    #[param(value_type = Option<u32>, minimum = 1, maximum = 4096, default = 10)]
    max_faces: Option<String>,
    /// Smallest similarity to return, 0-1 (default 0)
    #[param(value_type = Option<f32>, minimum = 0.0, maximum = 1.0, default = 0.0)]
    min_similarity: Option<String>,
}

impl SearchParams {
    /// The search the parameters ask for, or `invalid_parameter` naming the one out of range.
    pub fn search_query(&self) -> Result<SearchQuery, ApiError> {
        Ok(SearchQuery {
            max_faces: count("max_faces", self.max_faces.as_deref())?,
            min_similarity: unit_value("min_similarity", self.min_similarity.as_deref())?
                .unwrap_or(0.0),
        })
    }
}

/// `max_results` and `next_token` of the list routes of collections and faces.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageParams {
    /// Items per page, 1-4096 (default 10)
    #[param(value_type = Option<u32>, minimum = 1, maximum = 4096, default = 10)]
    max_results: Option<String>,
    /// Token from the previous page
    next_token: Option<String>,
}

impl PageParams {
    /// The page the parameters ask for, or `invalid_parameter`.
    pub fn page(self) -> Result<Page, ApiError> {
        Ok(Page {
            limit: count("max_results", self.max_results.as_deref())?,
            after: self.next_token,
        })
    }
}

#[cfg(test)]
mod tests {
    use actix_web::web::Query;
    use utoipa::IntoParams;

    use super::*;

    fn refusal(query: &str) -> ApiError {
        let error = Query::<PageParams>::from_query(query).expect_err("refused");
        query_error(&error)
    }

    #[test]
    fn the_documented_bounds_are_the_enforced_ones() {
        let documented = [
            PageParams::into_params(|| None),
            SearchParams::into_params(|| None),
        ];
        let counts: Vec<_> = documented
            .iter()
            .flatten()
            .map(|p| serde_json::to_value(p).expect("json"))
            .filter(|p| p["name"] == "max_results" || p["name"] == "max_faces")
            .collect();
        assert_eq!(counts.len(), 2);
        for count in counts {
            assert_eq!(count["schema"]["maximum"], MAX_MAX, "{count}");
            assert_eq!(count["schema"]["minimum"], 1, "{count}");
            assert_eq!(count["schema"]["default"], DEFAULT_MAX, "{count}");
        }
    }

    #[test]
    fn unknown_and_repeated_parameters_get_their_codes() {
        let unknown = refusal("max_results=5&limit=3");
        assert_eq!(unknown.code, Code::UnknownParameter);
        assert_eq!(unknown.message, "unknown query parameter `limit`");
        assert_eq!(
            refusal("max_results=5&max_results=6").code,
            Code::InvalidParameter
        );
        let page = Query::<PageParams>::from_query("max_results=4096&next_token=t")
            .expect("read")
            .into_inner()
            .page()
            .expect("in range");
        assert_eq!((page.limit, page.after.as_deref()), (MAX_MAX, Some("t")));
        let too_many = Query::<PageParams>::from_query("max_results=4097").expect("read");
        assert_eq!(
            too_many.into_inner().page().expect_err("out of range").code,
            Code::InvalidParameter
        );
    }
}
