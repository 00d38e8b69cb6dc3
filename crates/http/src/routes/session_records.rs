//! Routes of session records for the tenant's backend: `GET /api/v1/sessions` (the list, to
//! reconcile and audit) and `DELETE /api/v1/session/{id}` (erasure on a person's request).

use actix_web::{HttpResponse, web};
use sessions::records::{SessionListQuery, SessionListView};

use crate::AppState;
use crate::auth::Tenant;
use crate::error::{ApiError, ErrorBody};
use crate::openapi::bodies::KeyErrors;
use crate::params;
use crate::routes::collections::Query;
use crate::routes::sessions::{run, session_id};

#[utoipa::path(get, path = "/api/v1/sessions", tag = "sessions", operation_id = "list_sessions",
    params(
        ("reference_id" = Option<String>, Query, description = "Only sessions created with this `reference_id`"),
        ("status" = Option<String>, Query, description = "`created`, `in_progress` or `completed`"),
        ("verdict" = Option<String>, Query, description = "`pass`, `fail` or `retry`"),
        ("created_after" = Option<i64>, Query, description = "Created at or after (unix milliseconds)"),
        ("created_before" = Option<i64>, Query, description = "Created before (unix milliseconds)"),
        ("max_results" = Option<u32>, Query, description = "Sessions per page, 1-100 (default 20)"),
        ("next_token" = Option<String>, Query, description = "`next_token` of the previous page, with the same filters"),
    ),
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
