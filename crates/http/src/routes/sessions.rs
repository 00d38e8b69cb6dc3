//! Routes of liveness sessions: create managed and direct sessions, read results and
//! portraits, compare with a session's portrait, and list webhook attempts. Each handler
//! extracts, calls `sessions::SessionService` off the async workers, and maps the answer.

use crate::sessions::SessionService;
use crate::sessions::create::{DirectSessionRequest, ManagedSessionRequest};
use crate::sessions::read::{
    AuditFramesView, CompareWithSessionView, Credential, DeliveryView, PhotoAnswer,
    SessionResultView,
};
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::AppState;
use crate::auth::Tenant;
use crate::error::Code;
use crate::error::{ApiError, ErrorBody};
use crate::openapi::bodies::{KeyErrors, KeyOrTokenErrors, UploadErrors};
use crate::upload::{FormSpec, SafeMultipart, read_form};

/// `POST /api/v1/managed-session` body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ManagedSessionBody {
    /// Where the user goes after the verdict (`https`, public); `session_id` is added. The
    /// pattern states what needs no lookup: `https`, a host with a dot (or a bracketed IPv6
    /// literal), no credentials.
    #[schema(
        example = "https://bank.example/onboarding/done",
        max_length = 2048,
        pattern = r"^https://([^\s/?#@\[\]:.]+(\.[^\s/?#@\[\]:.]+)+\.?|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?([/?#]\S*)?$"
    )]
    redirect_url: Option<String>,
    /// Receives the signed verdict (`https`, public, a host that resolves).
    #[schema(
        max_length = 2048,
        pattern = r"^https://([^\s/?#@\[\]:.]+(\.[^\s/?#@\[\]:.]+)+\.?|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?([/?#]\S*)?$"
    )]
    webhook_url: Option<String>,
    /// Your identifier, echoed in the result and webhook: 1 to 256 characters, no control
    /// characters.
    #[schema(
        min_length = 1,
        max_length = 256,
        pattern = r"^[^\u0000-\u001f\u007f-\u009f]{1,256}$"
    )]
    reference_id: Option<String>,
    /// `passive`, or `active` (challenges; also when omitted).
    #[schema(example = "passive", value_type = Option<SessionModeName>)]
    mode: Option<String>,
    /// Liveness with verify: the customer's ID photo (JPEG, PNG or WebP, at most 8 MB), base64
    /// with the standard alphabet, padded. After a `pass` the ICAO portrait is compared with it
    /// and the result read with the API key, and the webhook, carry `match`. Only the face's
    /// embedding is kept, until the session completes or expires.
    #[schema(format = Byte, max_length = 11_184_812)]
    reference_image: Option<String>,
    /// Similarity (0..1) from which the portrait matches `reference_image`; default 0.65.
    #[schema(minimum = 0.0, maximum = 1.0, example = 0.65)]
    match_threshold: Option<f32>,
    /// The face model that embeds `reference_image` and, after a `pass`, the portrait
    /// (default `sface`); recorded with the reference, and `match_threshold` is calibrated
    /// for it.
    #[schema(value_type = Option<crate::app::dto::FaceModelSchema>)]
    face_model: Option<String>,
    /// Whether the verification page offers a person sensitive to flashing light the
    /// no-flash path (head turns instead of the screen's colours; the result, webhook and
    /// session list say `liveness_path`). Default: the deployment's
    /// `liveness.illumination.allow_no_flash` (on); `true` where the deployment turned it
    /// off is `no_flash_disabled`.
    #[schema(example = true)]
    allow_no_flash: Option<bool>,
}

/// A session's mode.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum SessionModeName {
    Active,
    Passive,
}

/// `POST /api/v1/session` body; `{}` or no body at all is accepted.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DirectSessionBody {
    /// The browser's fingerprint, which attempts are counted by: 1 to 256 characters, no
    /// control characters.
    #[schema(
        min_length = 1,
        max_length = 256,
        pattern = r"^[^\u0000-\u001f\u007f-\u009f]{1,256}$"
    )]
    fingerprint_id: Option<String>,
    captcha_token: Option<String>,
    /// Extension: `passive`, or `active` (also when omitted).
    #[schema(value_type = Option<SessionModeName>)]
    mode: Option<String>,
}

/// A new managed session. `token` is shown once.
#[derive(Debug, Serialize, ToSchema)]
pub struct ManagedSessionCreated {
    #[schema(value_type = String, example = "0192c0de-7a1e-7c3b-9a51-4d2e8f6b1a90")]
    session_id: Uuid,
    session_url: String,
    token: String,
    reference_id: Option<String>,
    #[schema(value_type = String, example = "passive")]
    mode: domain::SessionMode,
    #[schema(value_type = String, example = "created")]
    status: domain::SessionStatus,
    /// Unix milliseconds.
    expires_at: i64,
}

/// A new direct session. `token` is shown once.
#[derive(Debug, Serialize, ToSchema)]
pub struct DirectSessionCreated {
    #[schema(value_type = String, example = "0192c0de-7a1e-7c3b-9a51-4d2e8f6b1a90")]
    session_id: Uuid,
    token: String,
    session_url: String,
    challenge_count: u32,
    attempt_number: u32,
    max_attempts: u32,
    expires_at: i64,
}

#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    token: Option<String>,
}

pub(super) fn session_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| crate::sessions::SessionError::NotFound.into())
}

/// The reader's credential: the API key when an `Authorization` header is sent, else the token.
async fn credential(
    req: &HttpRequest,
    token: Option<String>,
) -> Result<(Option<Tenant>, String), ApiError> {
    if req
        .headers()
        .contains_key(actix_web::http::header::AUTHORIZATION)
    {
        let tenant = Tenant::extract(req).await?;
        return Ok((Some(tenant), String::new()));
    }
    Ok((None, token.unwrap_or_default()))
}

pub(super) async fn run<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&SessionService) -> crate::sessions::SessionResult<T> + Send + 'static,
) -> Result<T, ApiError> {
    let service = state.sessions.clone();
    crate::blocking(move || work(&service)).await
}

/// Runs a read of session `raw_id` with the request's credential (API key or token).
async fn read<T: Send + 'static>(
    req: &HttpRequest,
    state: &AppState,
    raw_id: &str,
    query: TokenQuery,
    read: fn(&SessionService, Uuid, Credential<'_>) -> crate::sessions::SessionResult<T>,
) -> Result<T, ApiError> {
    let id = session_id(raw_id)?;
    let (tenant, token) = credential(req, query.token).await?;
    run(state, move |s| match tenant {
        Some(Tenant(tenant)) => read(s, id, Credential::Tenant(tenant)),
        None => read(s, id, Credential::Token(&token)),
    })
    .await
}

#[utoipa::path(post, path = "/api/v1/managed-session", tag = "sessions",
    request_body = ManagedSessionBody,
    responses(
        (status = 201, description = "Session created", body = ManagedSessionCreated),
        (status = 400, description = "`invalid_json`, `invalid_mode`, `invalid_reference_id`, `invalid_redirect_url`, `invalid_webhook_url`, `invalid_reference_image`, `reference_no_face`, `invalid_match_threshold`, `invalid_face_model`, `no_flash_disabled`, `empty_image`, `invalid_image`", body = ErrorBody),
        (status = 408, description = "the body arrived too slowly (`body_timeout`)", body = ErrorBody),
        (status = 413, description = "`invalid_json` (body over 12 MB), `image_too_large` (reference over 8 MB decoded), `image_too_many_pixels`", body = ErrorBody),
        (status = 415, description = "`invalid_json` (not a JSON content type), `unsupported_image_format` (reference not JPEG, PNG or WebP)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])))]
pub async fn create_managed(
    state: web::Data<AppState>,
    tenant: Tenant,
    body: web::Json<ManagedSessionBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = ManagedSessionRequest {
        redirect_url: body.redirect_url,
        webhook_url: body.webhook_url,
        reference_id: body.reference_id,
        mode: body.mode,
        reference_image: body.reference_image,
        match_threshold: body.match_threshold,
        face_model: crate::params::face_model(body.face_model.as_deref())?,
        allow_no_flash: body.allow_no_flash,
    };
    let created = run(&state, move |s| s.create_managed(tenant.0, request)).await?;
    Ok(HttpResponse::Created().json(ManagedSessionCreated {
        session_id: created.session.id,
        session_url: created.session_url,
        token: created.token,
        reference_id: created.session.reference_id,
        mode: created.session.mode,
        status: created.session.status,
        expires_at: created.session.expires_at,
    }))
}

/// `POST /api/v1/session` takes `{}` or no body at all. utoipa states an optional body only
/// for an `Option`, as "null or the body", which this route refuses; so the route's own
/// description marks its body optional here, by the handler's path.
#[derive(Debug)]
pub(crate) struct OptionalDirectBody;

impl utoipa::Modify for OptionalDirectBody {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let path = <__path_create_direct as utoipa::Path>::path();
        if let Some(body) = openapi
            .paths
            .paths
            .get_mut(&path)
            .and_then(|item| item.post.as_mut())
            .and_then(|operation| operation.request_body.as_mut())
        {
            body.required = Some(utoipa::openapi::Required::False);
        }
    }
}

#[utoipa::path(post, path = "/api/v1/session", tag = "sessions",
    // `{}` or no body at all is accepted: `OptionalDirectBody` says so
    request_body = DirectSessionBody,
    responses(
        (status = 201, description = "Session created", body = DirectSessionCreated),
        (status = 400, description = "`invalid_json`, `invalid_mode`, `invalid_fingerprint_id`", body = ErrorBody),
        (status = 408, description = "the body arrived too slowly (`body_timeout`)", body = ErrorBody),
        (status = 403, description = "`captcha_failed`, `direct_sessions_disabled`", body = ErrorBody),
        (status = 429, description = "`too_many_attempts`; see `Retry-After`", body = ErrorBody),
    ))]
pub async fn create_direct(
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let body = crate::deadline::read_json_bytes(payload).await?;
    let body: DirectSessionBody = if body.iter().all(u8::is_ascii_whitespace) {
        DirectSessionBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::new(Code::InvalidJson, e.to_string()))?
    };
    let client = crate::client::client_address(&req, &state.trusted_proxies);
    let request = DirectSessionRequest {
        fingerprint_id: body.fingerprint_id,
        captcha_token: body.captcha_token,
        mode: body.mode,
    };
    let created = run(&state, move |s| s.create_direct(client, request)).await?;
    Ok(HttpResponse::Created().json(DirectSessionCreated {
        session_id: created.session.id,
        token: created.token,
        session_url: created.session_url,
        challenge_count: created.session.challenge_count,
        attempt_number: created.session.attempt_number,
        max_attempts: created.session.max_attempts,
        expires_at: created.session.expires_at,
    }))
}

#[utoipa::path(get, path = "/api/v1/session/{id}/result", tag = "sessions",
    params(("id" = String, Path), ("token" = Option<String>, Query, description = "the session token (or send the tenant's API key)")),
    responses(
        (status = 200, description = "The result; poll until `status` is `completed`", body = SessionResultView),
        (status = 404, description = "`session_not_found`: unknown, expired, or wrong token", body = ErrorBody),
        KeyOrTokenErrors,
    ))]
pub async fn result(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let view = read(
        &req,
        &state,
        &path,
        query.into_inner(),
        SessionService::result,
    )
    .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(view))
}

#[utoipa::path(get, path = "/api/v1/session/{id}/photo", tag = "sessions",
    params(("id" = String, Path), ("token" = Option<String>, Query)),
    responses(
        (status = 200, description = "The 480×600 ICAO portrait", content_type = "image/jpeg"),
        (status = 202, description = "No verdict stored yet (a verdict is stored with its portrait before the socket sends it); retry after `Retry-After` seconds"),
        (status = 404, description = "`session_not_found`, `photo_not_available` (no `pass`)", body = ErrorBody),
        KeyOrTokenErrors,
    ))]
pub async fn photo(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let answer = read(
        &req,
        &state,
        &path,
        query.into_inner(),
        SessionService::photo,
    )
    .await?;
    Ok(match answer {
        PhotoAnswer::Jpeg(jpeg) => HttpResponse::Ok()
            .content_type("image/jpeg")
            .insert_header(("Cache-Control", "no-store"))
            .body(jpeg),
        PhotoAnswer::Processing => HttpResponse::Accepted()
            .insert_header(("Retry-After", "1"))
            .json(serde_json::json!({"status": "processing"})),
    })
}

#[utoipa::path(post, path = "/api/v1/compare-with-session", tag = "sessions",
    request_body(content = crate::openapi::bodies::CompareWithSessionForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Similarity of the probe's largest face to the session's portrait", body = CompareWithSessionView),
        UploadErrors,
        (status = 404, description = "`session_not_found`", body = ErrorBody),
        (status = 409, description = "`session_not_verified`: the session has no `pass`", body = ErrorBody),
        (status = 422, description = "`no_face`", body = ErrorBody),
        KeyOrTokenErrors,
    ))]
pub async fn compare_with_session(
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: SafeMultipart,
) -> Result<HttpResponse, ApiError> {
    let (tenant, _) = credential(&req, None).await?;
    let mut form = read_form(
        payload,
        FormSpec {
            files: &["probe"],
            texts: &["session_id", "threshold", "token"],
        },
    )
    .await?;
    let id = session_id(form.required_text("session_id")?)?;
    let threshold = crate::params::unit_value("threshold", form.text("threshold"))?;
    let token = form.text("token").map(str::to_owned);
    let probe = form.file("probe")?;
    let service = state.sessions.clone();
    let view = crate::blocking(move || {
        service.compare_with_session(id, tenant.map(|t| t.0), token.as_deref(), &probe, threshold)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}

#[utoipa::path(get, path = "/api/v1/session/{id}/webhook-deliveries", tag = "sessions",
    params(("id" = String, Path)),
    responses(
        (status = 200, description = "The session's webhook delivery and its attempts", body = [DeliveryView]),
        (status = 404, description = "`session_not_found`", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])))]
pub async fn webhook_deliveries(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = session_id(&path)?;
    let deliveries = run(&state, move |s| s.deliveries(tenant.0, id)).await?;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "deliveries": deliveries })))
}

#[utoipa::path(get, path = "/api/v1/session/{id}/audit-frames", tag = "sessions",
    params(("id" = String, Path)),
    responses(
        (status = 200, description = "The session's audit frames (none unless the operator keeps them)", body = AuditFramesView),
        (status = 404, description = "`session_not_found`: unknown, expired, or another tenant's", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])))]
pub async fn audit_frames(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = session_id(&path)?;
    let view = run(&state, move |s| s.audit_frames(tenant.0, id)).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(view))
}
