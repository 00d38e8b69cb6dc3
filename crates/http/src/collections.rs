//! Routes for collections, their faces and 1:N search under `/api/v2/collections`.

use std::collections::HashMap;

use actix_multipart::Multipart;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::AppState;
use crate::auth::Tenant;
use crate::dto::{CollectionDto, CollectionList, FaceList};
use crate::error::ApiError;
use crate::params;
use crate::service;
use crate::upload::{FormSpec, read_form};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateCollection {
    external_id: String,
    #[serde(default)]
    description: String,
}

type Query = web::Query<HashMap<String, String>>;

pub async fn create(
    state: web::Data<AppState>,
    tenant: Tenant,
    body: web::Json<CreateCollection>,
) -> Result<HttpResponse, ApiError> {
    let external_id = params::external_id("external_id", &body.external_id)?;
    if body.description.len() > 1024 {
        return Err(ApiError::bad_request(
            "field_too_long",
            "`description` must be at most 1024 bytes",
        ));
    }
    let description = body.description.clone();
    let search = state.search.clone();
    let created = web::block(move || {
        search
            .store()
            .create_collection(tenant.0, &external_id, &description)
    })
    .await??;
    Ok(HttpResponse::Created().json(CollectionDto::from(created)))
}

pub async fn list(
    state: web::Data<AppState>,
    tenant: Tenant,
    query: Query,
) -> Result<HttpResponse, ApiError> {
    let (limit, after) = params::page(&query)?;
    let search = state.search.clone();
    let page = web::block(move || {
        search
            .store()
            .list_collections(tenant.0, limit, after.as_deref())
    })
    .await??;
    Ok(HttpResponse::Ok().json(CollectionList {
        collections: page.items.into_iter().map(Into::into).collect(),
        next_token: page.next_token,
    }))
}

pub async fn get(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let external_id = params::external_id("external_id", &path)?;
    let search = state.search.clone();
    let collection =
        web::block(move || search.store().collection(tenant.0, &external_id)).await??;
    Ok(HttpResponse::Ok().json(CollectionDto::from(collection)))
}

pub async fn delete(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let external_id = params::external_id("external_id", &path)?;
    let search = state.search.clone();
    web::block(move || search.delete_collection(tenant.0, &external_id)).await??;
    Ok(HttpResponse::NoContent().finish())
}

pub async fn index_face(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
    payload: Multipart,
) -> Result<HttpResponse, ApiError> {
    let collection = params::external_id("external_id", &path)?;
    let mut form = read_form(
        payload,
        FormSpec {
            files: &["image"],
            texts: &["external_face_id", "quality_filter"],
        },
    )
    .await?;
    let external_face_id =
        params::external_id("external_face_id", form.required_text("external_face_id")?)?;
    let quality_filter = match form.text("quality_filter").unwrap_or("auto") {
        "auto" => true,
        "none" => false,
        _ => {
            return Err(ApiError::bad_request(
                "invalid_parameter",
                "`quality_filter` must be `auto` or `none`",
            ));
        }
    };
    let image = form.file("image")?;
    let (engine, search) = (state.engine.clone(), state.search.clone());
    let indexed = web::block(move || {
        service::index_face(
            &engine,
            &search,
            tenant.0,
            &collection,
            &external_face_id,
            &image,
            quality_filter,
        )
    })
    .await??;
    Ok(HttpResponse::Created().json(indexed))
}

pub async fn list_faces(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
    query: Query,
) -> Result<HttpResponse, ApiError> {
    let collection = params::external_id("external_id", &path)?;
    let (limit, after) = params::page(&query)?;
    let search = state.search.clone();
    let page = web::block(move || {
        let page = search
            .store()
            .list_faces(tenant.0, &collection, limit, after.as_deref())?;
        Ok::<_, ApiError>(FaceList {
            faces: page
                .items
                .into_iter()
                .map(|f| service::face_dto(f, &collection))
                .collect(),
            next_token: page.next_token,
        })
    })
    .await??;
    Ok(HttpResponse::Ok().json(page))
}

pub async fn get_face(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let collection = params::external_id("external_id", &path.0)?;
    let face_id = params::face_id(&path.1)?;
    let search = state.search.clone();
    let face = web::block(move || {
        search
            .store()
            .face(tenant.0, &collection, face_id)
            .map(|f| service::face_dto(f, &collection))
    })
    .await??;
    Ok(HttpResponse::Ok().json(face))
}

pub async fn delete_face(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let collection = params::external_id("external_id", &path.0)?;
    let face_id = params::face_id(&path.1)?;
    let search = state.search.clone();
    web::block(move || search.delete_face(tenant.0, &collection, face_id)).await??;
    Ok(HttpResponse::NoContent().finish())
}

pub async fn search_by_face(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<(String, String)>,
    query: Query,
) -> Result<HttpResponse, ApiError> {
    let collection = params::external_id("external_id", &path.0)?;
    let face_id = params::face_id(&path.1)?;
    let wanted = params::search_query(&query)?;
    let search = state.search.clone();
    let response = web::block(move || {
        service::search_by_face(&search, tenant.0, &collection, face_id, wanted)
    })
    .await??;
    Ok(HttpResponse::Ok().json(response))
}

pub async fn search_by_image(
    state: web::Data<AppState>,
    tenant: Tenant,
    path: web::Path<String>,
    query: Query,
    payload: Multipart,
) -> Result<HttpResponse, ApiError> {
    let collection = params::external_id("external_id", &path)?;
    let wanted = params::search_query(&query)?;
    let mut form = read_form(
        payload,
        FormSpec {
            files: &["image"],
            texts: &[],
        },
    )
    .await?;
    let image = form.file("image")?;
    let (engine, search) = (state.engine.clone(), state.search.clone());
    let response = web::block(move || {
        service::search_by_image(&engine, &search, tenant.0, &collection, &image, wanted)
    })
    .await??;
    Ok(HttpResponse::Ok().json(response))
}
