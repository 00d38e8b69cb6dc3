//! Routes of session records for the tenant's backend: `GET /api/v1/sessions` (the list, to
//! reconcile and audit) and `DELETE /api/v1/session/{id}` (erasure on a person's request).

use actix_web::{HttpResponse, web};
use sessions::records::{SessionListQuery, SessionListView};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::auth::Tenant;
use crate::error::{ApiError, ErrorBody};
use crate::openapi::bodies::KeyErrors;
use crate::params;
use crate::routes::collections::Query;
use crate::routes::sessions::{run, session_id};

/// The list's query as the document describes it, with what `sessions::records` enforces
/// (the handler reads the raw query, refusing unknown names, and the records module parses it).
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct SessionListParameters {
    /// Only sessions created with this `reference_id`
    #[param(
        min_length = 1,
        max_length = 256,
        pattern = r"^[^\u0000-\u001f\u007f-\u009f]{1,256}$"
    )]
    reference_id: Option<String>,
    /// `created`, `in_progress` or `completed`
    #[param(inline)]
    status: Option<StatusFilter>,
    /// `pass`, `fail` or `retry`
    #[param(inline)]
    verdict: Option<VerdictFilter>,
    /// Created at or after (unix milliseconds)
    #[param(minimum = 0)]
    created_after: Option<i64>,
    /// Created before (unix milliseconds)
    #[param(minimum = 0)]
    created_before: Option<i64>,
    /// Sessions per page, 1-100 (default 20)
    #[param(minimum = 1, maximum = 100, default = 20)]
    max_results: Option<u32>,
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
    query: Query,
) -> Result<HttpResponse, ApiError> {
    let query = list_query(query.into_inner())?;
    let view = run(&state, move |s| s.list(tenant.0, &query)).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(view))
}

fn list_query(
    mut raw: std::collections::HashMap<String, String>,
) -> Result<SessionListQuery, ApiError> {
    params::only(
        &raw,
        &[
            "reference_id",
            "status",
            "verdict",
            "created_after",
            "created_before",
            "max_results",
            "next_token",
        ],
    )?;
    Ok(SessionListQuery {
        reference_id: raw.remove("reference_id"),
        status: raw.remove("status"),
        verdict: raw.remove("verdict"),
        created_after: raw.remove("created_after"),
        created_before: raw.remove("created_before"),
        max_results: raw.remove("max_results"),
        next_token: raw.remove("next_token"),
    })
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
