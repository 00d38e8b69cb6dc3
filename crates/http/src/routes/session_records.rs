//! Routes of session records for the tenant's backend: `GET /api/v1/sessions` (the list, to
//! reconcile and audit) and `DELETE /api/v1/session/{id}` (erasure on a person's request).

use crate::sessions::records::{SessionListQuery, SessionListView};
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::auth::Tenant;
use crate::error::{ApiError, ErrorBody};
use crate::openapi::bodies::KeyErrors;
use crate::routes::sessions::{run, session_id};

/// The list's query as the document describes it, with what `sessions::records` enforces
/// (unknown names are refused here; the records module parses the values, so its messages
/// name the filter that is out of form).
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SessionListParameters {
    /// Only sessions created with this `reference_id`
    #[param(
        min_length = 1,
        max_length = 256,
        pattern = r"^[^\u0000-\u001f\u007f-\u009f]{1,256}$"
    )]
    reference_id: Option<String>,
    /// `created`, `in_progress` or `completed`
    #[param(value_type = Option<StatusFilter>, inline)]
    status: Option<String>,
    /// `pass`, `fail` or `retry`
    #[param(value_type = Option<VerdictFilter>, inline)]
    verdict: Option<String>,
    /// Created at or after (unix milliseconds)
    #[param(value_type = Option<i64>, minimum = 0)]
    created_after: Option<String>,
    /// Created before (unix milliseconds)
    #[param(value_type = Option<i64>, minimum = 0)]
    created_before: Option<String>,
    /// Sessions per page, 1-100 (default 20)
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100, default = 20)]
    max_results: Option<String>,
    /// `next_token` of the previous page, with the same filters
    #[param(pattern = r"^[0-9]{1,15}\.[0-9a-f]{32}$")]
    next_token: Option<String>,
}

// the `status` filter's values (no doc comment: it would become the schema's description)
#[derive(Debug, ToSchema)]
#[schema(rename_all = "snake_case")]
#[allow(dead_code)]
enum StatusFilter {
    Created,
    InProgress,
    Completed,
}

// the `verdict` filter's values
#[derive(Debug, ToSchema)]
#[schema(rename_all = "snake_case")]
#[allow(dead_code)]
enum VerdictFilter {
    Pass,
    Fail,
    Retry,
}

#[utoipa::path(get, path = "/api/v1/sessions", tag = "sessions", operation_id = "list_sessions",
    params(SessionListParameters),
    responses(
        (status = 200, description = "One page of the tenant's unexpired sessions, newest first; each as the result reads with the API key, never an image", body = SessionListView),
        (status = 400, description = "`invalid_parameter` (a filter, `max_results` or `next_token` out of its form), `unknown_parameter`", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])))]
pub async fn list(
    state: web::Data<AppState>,
    tenant: Tenant,
    query: web::Query<SessionListParameters>,
) -> Result<HttpResponse, ApiError> {
    let query = SessionListQuery::from(query.into_inner());
    let view = run(&state, move |s| s.list(tenant.0, &query)).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(view))
}

impl From<SessionListParameters> for SessionListQuery {
    fn from(p: SessionListParameters) -> Self {
        SessionListQuery {
            reference_id: p.reference_id,
            status: p.status,
            verdict: p.verdict,
            created_after: p.created_after,
            created_before: p.created_before,
            max_results: p.max_results,
            next_token: p.next_token,
        }
    }
}

#[utoipa::path(delete, path = "/api/v1/session/{id}", tag = "sessions", operation_id = "erase_session",
    params(("id" = String, Path)),
    responses(
        (status = 204, description = "Erased now: the portrait, audit frames, reference embedding, result and any webhook not yet sent. A stream in progress is closed. Erasing an erased session answers 204 again; every read of it answers `session_not_found`"),
        (status = 404, description = "`session_not_found`: unknown, or another tenant's", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])))]
pub async fn erase(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = session_id(&path)?;
    run(&state, move |s| s.erase(tenant.0, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
