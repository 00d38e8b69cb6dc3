//! 1:N search routes: `search-by-face/{face_id}` (an indexed face) and `search-by-image` (a new
//! image, not indexed), both under `/api/v2/collections/{external_id}`.

use actix_web::{HttpResponse, web};

use crate::AppState;
use crate::app::dto::SearchResponse;
use crate::auth::Tenant;
use crate::error::{ApiError, ErrorBody};
use crate::openapi::bodies::ImageForm;
use crate::openapi::bodies::{KeyErrors, UploadErrors};
use crate::params;
use crate::upload::{FormSpec, SafeMultipart, read_form};

#[utoipa::path(
    post,
    path = "/api/v2/collections/{external_id}/search-by-face/{face_id}",
    tag = "search",
    params(
        ("face_id" = String, Path, description = "An indexed face of this collection"),
        ("external_id" = String, Path, description = "The collection's external id"),
        params::SearchParams,
    ),
    responses(
        (status = 200, description = "Hits, best first", body = SearchResponse),
        (status = 400, description = "bad identifier or parameter (`invalid_identifier`, `invalid_parameter`, `unknown_parameter`)", body = ErrorBody),
        (status = 404, description = "unknown collection or face (`collection_not_found`, `face_not_found`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn search_by_face(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<(String, String)>,
    query: web::Query<params::SearchParams>,
) -> Result<HttpResponse, ApiError> {
    let (collection, face_id) = path.into_inner();
    let wanted = query.search_query()?;
    let faces = state.faces.clone();
    let response =
        crate::blocking(move || faces.do_search_by_face(tenant.0, &collection, &face_id, wanted))
            .await?;
    Ok(HttpResponse::Ok().json(response))
}

#[utoipa::path(
    post,
    path = "/api/v2/collections/{external_id}/search-by-image",
    tag = "search",
    params(
        ("external_id" = String, Path, description = "The collection's external id"),
        params::SearchParams,
    ),
    request_body(content = ImageForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Hits for the largest face of the image, which is not indexed", body = SearchResponse),
        UploadErrors,
        (status = 422, description = "no face found (`no_face`)", body = ErrorBody),
        (status = 404, description = "unknown collection (`collection_not_found`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn search_by_image(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
    query: web::Query<params::SearchParams>,
    payload: SafeMultipart,
) -> Result<HttpResponse, ApiError> {
    let wanted = query.search_query()?;
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
    let response =
        crate::blocking(move || faces.do_search_by_image(tenant.0, &path, &image, wanted)).await?;
    Ok(HttpResponse::Ok().json(response))
}
