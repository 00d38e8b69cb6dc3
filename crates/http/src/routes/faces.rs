//! Routes for `POST /api/v2/faces:detect`, `POST /api/v2/faces:compare` and
//! `POST /api/v1/compare-faces`.

use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::app::dto::{CompareResponse, CompareV1Response, DetectResponse};
use crate::auth::Tenant;
use crate::error::{ApiError, ErrorBody};
use crate::openapi::bodies::{CompareForm, CompareV1Form, ImageForm};
use crate::openapi::bodies::{KeyErrors, UploadErrors};
use crate::params;
use crate::upload::{FormSpec, SafeMultipart, read_form};

#[utoipa::path(
    post,
    path = "/api/v2/faces:detect",
    tag = "faces",
    request_body(content = ImageForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Every face found, largest first", body = DetectResponse),
        UploadErrors,
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn detect(
    state: web::Data<AppState>,
    _tenant: Tenant,
    payload: SafeMultipart,
) -> Result<HttpResponse, ApiError> {
    let mut form = read_form(
        payload,
        FormSpec {
            files: &["image"],
            texts: &[],
        },
    )
    .await?;
    let image = form.file("image")?;
    let faces = state.faces.clone();
    let response = crate::blocking(move || faces.do_detect(&image)).await?;
    Ok(HttpResponse::Ok().json(response))
}

/// Reads a two-image compare form (field names differ between v1 and v2) and runs it.
async fn compare_fields(
    state: &AppState,
    payload: SafeMultipart,
    fields: &'static [&'static str; 2],
) -> Result<CompareResponse, ApiError> {
    let mut form = read_form(
        payload,
        FormSpec {
            files: fields,
            texts: &["threshold", "face_model"],
        },
    )
    .await?;
    let threshold = params::unit_value("threshold", form.text("threshold"))?;
    let face_model = params::face_model(form.text("face_model"))?;
    let (source, target) = (form.file(fields[0])?, form.file(fields[1])?);
    let faces = state.faces.clone();
    crate::blocking(move || faces.do_compare(&source, &target, threshold, face_model)).await
}

#[utoipa::path(
    post,
    path = "/api/v2/faces:compare",
    tag = "faces",
    request_body(content = CompareForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Similarity of the largest face of each image", body = CompareResponse),
        UploadErrors,
        (status = 422, description = "no face found (`no_face`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn compare(
    state: web::Data<AppState>,
    _tenant: Tenant,
    payload: SafeMultipart,
) -> Result<HttpResponse, ApiError> {
    let response = compare_fields(&state, payload, &["source_image", "target_image"]).await?;
    Ok(HttpResponse::Ok().json(response))
}

#[utoipa::path(
    post,
    path = "/api/v1/compare-faces",
    tag = "faces",
    request_body(content = CompareV1Form, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Similarity of the largest face of each image", body = CompareV1Response),
        UploadErrors,
        (status = 422, description = "no face found (`no_face`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn compare_v1(
    state: web::Data<AppState>,
    _tenant: Tenant,
    payload: SafeMultipart,
) -> Result<HttpResponse, ApiError> {
    let full = compare_fields(&state, payload, &["reference", "probe"]).await?;
    Ok(HttpResponse::Ok().json(CompareV1Response {
        similarity: full.similarity,
        is_match: full.is_match,
        threshold: full.threshold,
    }))
}
