//! Routes for `POST /api/v2/faces:detect`, `POST /api/v2/faces:compare` and
//! `POST /api/v1/compare-faces`.

use actix_multipart::Multipart;
use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::auth::Tenant;
use crate::dto::CompareV1Response;
use crate::error::ApiError;
use crate::service::{self, DEFAULT_THRESHOLD};
use crate::upload::{FormSpec, read_form};

pub async fn detect(
    state: web::Data<AppState>,
    _tenant: Tenant,
    payload: Multipart,
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
    let engine = state.engine.clone();
    let response = web::block(move || service::detect(&engine, &image)).await??;
    Ok(HttpResponse::Ok().json(response))
}

pub async fn compare(
    state: web::Data<AppState>,
    _tenant: Tenant,
    payload: Multipart,
) -> Result<HttpResponse, ApiError> {
    let mut form = read_form(
        payload,
        FormSpec {
            files: &["source_image", "target_image"],
            texts: &["threshold"],
        },
    )
    .await?;
    let threshold = service::unit_value("threshold", form.text("threshold"), DEFAULT_THRESHOLD)?;
    let (source, target) = (form.file("source_image")?, form.file("target_image")?);
    let engine = state.engine.clone();
    let response =
        web::block(move || service::compare(&engine, &source, &target, threshold)).await??;
    Ok(HttpResponse::Ok().json(response))
}

pub async fn compare_v1(
    state: web::Data<AppState>,
    _tenant: Tenant,
    payload: Multipart,
) -> Result<HttpResponse, ApiError> {
    let mut form = read_form(
        payload,
        FormSpec {
            files: &["reference", "probe"],
            texts: &["threshold"],
        },
    )
    .await?;
    let threshold = service::unit_value("threshold", form.text("threshold"), DEFAULT_THRESHOLD)?;
    let (reference, probe) = (form.file("reference")?, form.file("probe")?);
    let engine = state.engine.clone();
    let full =
        web::block(move || service::compare(&engine, &reference, &probe, threshold)).await??;
    Ok(HttpResponse::Ok().json(CompareV1Response {
        similarity: full.similarity,
        is_match: full.is_match,
        threshold: full.threshold,
    }))
}
