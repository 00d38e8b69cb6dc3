//! Routes for collections and their faces under `/api/v2/collections` (search is in
//! `search.rs`).

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::QualityFilter;
use crate::app::dto::{CollectionDto, CollectionList, FaceList, IndexedFaceDto};
use crate::auth::Tenant;
use crate::error::{ApiError, Code, ErrorBody};
use crate::openapi::bodies::IndexFaceForm;
use crate::openapi::bodies::{KeyErrors, UploadErrors};
use crate::params;
use crate::upload::{FormSpec, SafeMultipart, read_form};

/// The body of `POST /api/v2/collections`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateCollection {
    /// 1-255 characters of `[A-Za-z0-9_.:-]`, unique within the tenant.
    #[schema(pattern = "^[A-Za-z0-9_.:-]{1,255}$")]
    external_id: String,
    /// Free text, at most 1024 characters.
    #[serde(default)]
    #[schema(max_length = 1024)]
    description: String,
    /// The face model that embeds every face of the collection (default `sface`). It never
    /// changes: images are not kept, so embeddings cannot be recomputed with another model.
    #[schema(value_type = Option<crate::app::dto::FaceModelSchema>)]
    face_model: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/v2/collections",
    tag = "collections",
    request_body = CreateCollection,
    responses(
        (status = 201, description = "Created", body = CollectionDto),
        (status = 400, description = "an `external_id` that is not 1-255 of `[A-Za-z0-9_.:-]` (`invalid_identifier`), a `face_model` that is not `fr_feature` or `sface` (`invalid_face_model`)", body = ErrorBody),
        (status = 408, description = "the body arrived too slowly (`body_timeout`)", body = ErrorBody),
        (status = 409, description = "the tenant already has a collection with this id (`collection_already_exists`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn create(
    state: web::Data<AppState>,
    tenant: Tenant,
    body: web::Json<CreateCollection>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let face_model = params::face_model(body.face_model.as_deref())?;
    let faces = state.faces.clone();
    let created = crate::blocking(move || {
        faces.do_create_collection(tenant.0, &body.external_id, &body.description, face_model)
    })
    .await?;
    Ok(HttpResponse::Created().json(created))
}

#[utoipa::path(
    get,
    path = "/api/v2/collections",
    tag = "collections",
    params(params::PageParams),
    responses(
        (status = 200, description = "One page of the tenant's collections, oldest first", body = CollectionList),
        (status = 400, description = "bad identifier or parameter (`invalid_identifier`, `invalid_parameter`, `unknown_parameter`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn list(
    state: web::Data<AppState>,
    tenant: Tenant,
    query: web::Query<params::PageParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.into_inner().page()?;
    let faces = state.faces.clone();
    let listed = crate::blocking(move || faces.do_list_collections(tenant.0, page)).await?;
    Ok(HttpResponse::Ok().json(listed))
}

#[utoipa::path(
    get,
    path = "/api/v2/collections/{external_id}",
    tag = "collections",
    params(("external_id" = String, Path, description = "The collection's external id")),
    responses(
        (status = 200, description = "The collection with its face count", body = CollectionDto),
        (status = 400, description = "an `external_id` that is not 1-255 of `[A-Za-z0-9_.:-]` (`invalid_identifier`)", body = ErrorBody),
        (status = 404, description = "unknown collection (`collection_not_found`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn get(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let faces = state.faces.clone();
    let collection = crate::blocking(move || faces.do_get_collection(tenant.0, &path)).await?;
    Ok(HttpResponse::Ok().json(collection))
}

#[utoipa::path(
    delete,
    path = "/api/v2/collections/{external_id}",
    tag = "collections",
    params(("external_id" = String, Path, description = "The collection's external id")),
    responses(
        (status = 204, description = "Deleted with all its faces"),
        (status = 400, description = "an `external_id` that is not 1-255 of `[A-Za-z0-9_.:-]` (`invalid_identifier`)", body = ErrorBody),
        (status = 404, description = "unknown collection (`collection_not_found`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn delete(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let faces = state.faces.clone();
    crate::blocking(move || faces.do_delete_collection(tenant.0, &path)).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    post,
    path = "/api/v2/collections/{external_id}/faces",
    tag = "faces in collections",
    params(("external_id" = String, Path, description = "The collection's external id")),
    request_body(content = IndexFaceForm, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "The largest face, indexed", body = IndexedFaceDto),
        UploadErrors,
        (status = 422, description = "no face found (`no_face`), or below the quality filter (`face_quality_too_low`, with the reasons)", body = ErrorBody),
        (status = 404, description = "unknown collection (`collection_not_found`)", body = ErrorBody),
        (status = 409, description = "the collection holds faces of another embedder than this replica runs (`embedder_mismatch`); nothing is written", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn index_face(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
    payload: SafeMultipart,
) -> Result<HttpResponse, ApiError> {
    let mut form = read_form(
        payload,
        FormSpec {
            files: &["image"],
            texts: &["external_face_id", "quality_filter"],
        },
    )
    .await?;
    let external_face_id = form.required_text("external_face_id")?.to_owned();
    let quality_filter = QualityFilter::parse(form.text("quality_filter").unwrap_or("auto"))
        .ok_or_else(|| {
            ApiError::new(
                Code::InvalidParameter,
                "`quality_filter` must be `auto` or `none`",
            )
        })?;
    let image = form.file("image")?;
    let faces = state.faces.clone();
    let indexed = crate::blocking(move || {
        faces.do_index_face(tenant.0, &path, &external_face_id, &image, quality_filter)
    })
    .await?;
    Ok(HttpResponse::Created().json(indexed))
}

#[utoipa::path(
    get,
    path = "/api/v2/collections/{external_id}/faces",
    tag = "faces in collections",
    params(
        ("external_id" = String, Path, description = "The collection's external id"),
        params::PageParams,
    ),
    responses(
        (status = 200, description = "One page of the collection's faces, oldest first", body = FaceList),
        (status = 400, description = "bad identifier or parameter (`invalid_identifier`, `invalid_parameter`, `unknown_parameter`)", body = ErrorBody),
        (status = 404, description = "unknown collection (`collection_not_found`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn list_faces(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
    query: web::Query<params::PageParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.into_inner().page()?;
    let faces = state.faces.clone();
    let listed = crate::blocking(move || faces.do_list_faces(tenant.0, &path, page)).await?;
    Ok(HttpResponse::Ok().json(listed))
}

#[utoipa::path(
    get,
    path = "/api/v2/collections/{external_id}/faces/{face_id}",
    tag = "faces in collections",
    params(
        ("external_id" = String, Path, description = "The collection's external id"),
        ("face_id" = String, Path, description = "The face's UUID"),
    ),
    responses(
        (status = 200, description = "The indexed face", body = IndexedFaceDto),
        (status = 400, description = "an `external_id` that is not 1-255 of `[A-Za-z0-9_.:-]` (`invalid_identifier`)", body = ErrorBody),
        (status = 404, description = "unknown collection or face (`collection_not_found`, `face_not_found`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn get_face(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (collection, face_id) = path.into_inner();
    let faces = state.faces.clone();
    let face = crate::blocking(move || faces.do_get_face(tenant.0, &collection, &face_id)).await?;
    Ok(HttpResponse::Ok().json(face))
}

#[utoipa::path(
    delete,
    path = "/api/v2/collections/{external_id}/faces/{face_id}",
    tag = "faces in collections",
    params(
        ("external_id" = String, Path, description = "The collection's external id"),
        ("face_id" = String, Path, description = "The face's UUID"),
    ),
    responses(
        (status = 204, description = "Deleted, with its vector"),
        (status = 400, description = "an `external_id` that is not 1-255 of `[A-Za-z0-9_.:-]` (`invalid_identifier`)", body = ErrorBody),
        (status = 404, description = "unknown collection or face (`collection_not_found`, `face_not_found`)", body = ErrorBody),
        KeyErrors,
    ),
    security(("api_key" = [])),
)]
pub async fn delete_face(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (collection, face_id) = path.into_inner();
    let faces = state.faces.clone();
    crate::blocking(move || faces.do_delete_face(tenant.0, &collection, &face_id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
