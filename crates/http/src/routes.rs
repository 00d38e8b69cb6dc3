//! Every route of the service on an actix `ServiceConfig`, one resource per path: a known path
//! called with a method it does not take is answered 405 `method_not_allowed` with an `Allow`
//! header, and an unknown path 404 `route_not_found`. Also the extractors' error answers
//! (JSON, query and path), mapped onto the error codes.

use actix_web::http::header;
use actix_web::{HttpResponse, ResponseError, Route, web};

use crate::error::{ApiError, Code};
use crate::{
    AppState, MAX_JSON_BYTES, collections, deadline, faces, health, liveness, observability,
    openapi, search, ui, ws,
};

/// One path with its routes; `allow` lists their methods for the 405 answer.
fn resource(path: &str, allow: &'static str, routes: Vec<Route>) -> actix_web::Resource {
    let mut resource = web::resource(path);
    for route in routes {
        resource = resource.route(route);
    }
    resource.default_service(web::to(move || async move { method_not_allowed(allow) }))
}

/// 405 with the methods the path takes.
fn method_not_allowed(allow: &str) -> HttpResponse {
    let mut response = ApiError::new(
        Code::MethodNotAllowed,
        format!("this path takes {allow} only"),
    )
    .error_response();
    if let Ok(value) = header::HeaderValue::from_str(allow) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    response
}

/// The answer to a path no route matches.
pub(crate) async fn not_found() -> HttpResponse {
    ApiError::new(Code::RouteNotFound, "no route matches this path").error_response()
}

/// Registers every route of the service on an actix `ServiceConfig`.
pub fn configure(state: AppState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg: &mut web::ServiceConfig| {
        let json = web::JsonConfig::default()
            .limit(MAX_JSON_BYTES)
            .error_handler(|e, _| {
                if let actix_web::error::JsonPayloadError::Payload(payload) = &e
                    && deadline::is_body_timeout(payload)
                {
                    return deadline::body_timeout().into();
                }
                let status = match &e {
                    actix_web::error::JsonPayloadError::Overflow { .. }
                    | actix_web::error::JsonPayloadError::OverflowKnownLength { .. } => {
                        actix_web::http::StatusCode::PAYLOAD_TOO_LARGE
                    }
                    actix_web::error::JsonPayloadError::ContentType => {
                        actix_web::http::StatusCode::UNSUPPORTED_MEDIA_TYPE
                    }
                    _ => actix_web::http::StatusCode::BAD_REQUEST,
                };
                ApiError::with_status(status, Code::InvalidJson, e.to_string()).into()
            });
        let query = web::QueryConfig::default()
            .error_handler(|e, _| ApiError::new(Code::InvalidParameter, e.to_string()).into());
        let path = web::PathConfig::default()
            .error_handler(|e, _| ApiError::new(Code::InvalidIdentifier, e.to_string()).into());
        cfg.app_data(web::Data::new(state))
            .app_data(json)
            .app_data(query)
            .app_data(path)
            .service(resource(
                "/healthz",
                "GET",
                vec![web::get().to(health::healthz)],
            ))
            .service(resource(
                "/readyz",
                "GET",
                vec![web::get().to(health::readyz)],
            ))
            .service(resource(
                "/metrics",
                "GET",
                vec![web::get().to(observability::metrics)],
            ))
            .service(resource(
                "/api/openapi.json",
                "GET",
                vec![web::get().to(openapi::openapi_json)],
            ))
            .service(resource(
                "/api/v1/compare-faces",
                "POST",
                vec![web::post().to(faces::compare_v1)],
            ))
            .service(resource(
                "/api/v1/managed-session",
                "POST",
                vec![web::post().to(liveness::create_managed)],
            ))
            .service(resource(
                "/api/v1/session",
                "POST",
                vec![web::post().to(liveness::create_direct)],
            ))
            .service(resource(
                "/api/v1/session/{id}/result",
                "GET",
                vec![web::get().to(liveness::result)],
            ))
            .service(resource(
                "/api/v1/session/{id}/photo",
                "GET",
                vec![web::get().to(liveness::photo)],
            ))
            .service(resource(
                "/api/v1/session/{id}/webhook-deliveries",
                "GET",
                vec![web::get().to(liveness::webhook_deliveries)],
            ))
            .service(resource(
                "/api/v1/compare-with-session",
                "POST",
                vec![web::post().to(liveness::compare_with_session)],
            ))
            .service(resource(
                "/ws/{session_id}",
                "GET",
                vec![web::get().to(ws::stream)],
            ))
            .service(resource(
                "/verify/{id}",
                "GET",
                vec![web::get().to(ui::verify)],
            ))
            .service(resource("/demo", "GET", vec![web::get().to(ui::demo)]))
            .service(resource(
                "/sdk/facegate.js",
                "GET",
                vec![web::get().to(ui::sdk)],
            ))
            .service(resource(
                "/ui/{version}/{path:.*}",
                "GET",
                vec![web::get().to(ui::asset)],
            ))
            .service(resource(
                "/api/v2/faces:detect",
                "POST",
                vec![web::post().to(faces::detect)],
            ))
            .service(resource(
                "/api/v2/faces:compare",
                "POST",
                vec![web::post().to(faces::compare)],
            ))
            .service(resource(
                "/api/v2/collections",
                "GET, POST",
                vec![
                    web::get().to(collections::list),
                    web::post().to(collections::create),
                ],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}",
                "GET, DELETE",
                vec![
                    web::get().to(collections::get),
                    web::delete().to(collections::delete),
                ],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}/faces",
                "GET, POST",
                vec![
                    web::get().to(collections::list_faces),
                    web::post().to(collections::index_face),
                ],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}/faces/{face_id}",
                "GET, DELETE",
                vec![
                    web::get().to(collections::get_face),
                    web::delete().to(collections::delete_face),
                ],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}/search-by-face/{face_id}",
                "POST",
                vec![web::post().to(search::search_by_face)],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}/search-by-image",
                "POST",
                vec![web::post().to(search::search_by_image)],
            ))
            .default_service(web::to(not_found));
    }
}
