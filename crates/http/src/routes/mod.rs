//! Every route of the service on an actix `ServiceConfig`, one resource per path: a known path
//! called with a method it does not take is answered 405 `method_not_allowed` with an `Allow`
//! header, and an unknown path 404 `route_not_found`. Also the extractors' error answers
//! (JSON, query and path), mapped onto the error codes.

use actix_web::http::{Method, header};
use actix_web::{HttpResponse, ResponseError, Route, web};

use crate::error::{ApiError, Code};
use crate::{AppState, MAX_JSON_BYTES, MAX_SESSION_JSON_BYTES, deadline, observability, openapi};

pub mod collections;
pub mod faces;
pub mod front;
pub mod health;
mod languages;
pub mod search;
pub mod session_records;
pub mod sessions;
pub mod ui;
mod ws;

/// One path with a handler per method; any other method gets 405 with an `Allow` header
/// listing these.
fn resource(path: &str, routes: Vec<(Method, Route)>) -> actix_web::Resource {
    let allow = routes
        .iter()
        .map(|(method, _)| method.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let mut resource = web::resource(path);
    for (method, route) in routes {
        resource = resource.route(route.method(method));
    }
    resource.default_service(web::to(move || {
        let response = method_not_allowed(&allow);
        async move { response }
    }))
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

/// JSON bodies up to `limit` bytes, their errors mapped onto `invalid_json` (413 over the
/// limit, 415 without a JSON content type) or `body_timeout`.
fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
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
        })
}

/// Registers every route of the service on an actix `ServiceConfig`.
pub fn configure(state: AppState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg: &mut web::ServiceConfig| {
        let json = json_config(MAX_JSON_BYTES);
        let query = web::QueryConfig::default()
            .error_handler(|e, _| ApiError::new(Code::InvalidParameter, e.to_string()).into());
        let path = web::PathConfig::default()
            .error_handler(|e, _| ApiError::new(Code::InvalidIdentifier, e.to_string()).into());
        cfg.app_data(web::Data::new(state))
            .app_data(json)
            .app_data(query)
            .app_data(path)
            .service(resource(
                "/",
                vec![(Method::GET, web::to(front::front_door))],
            ))
            .service(resource(
                "/api/docs",
                vec![(Method::GET, web::to(front::api_docs))],
            ))
            .service(resource(
                "/healthz",
                vec![(Method::GET, web::to(health::healthz))],
            ))
            .service(resource(
                "/readyz",
                vec![(Method::GET, web::to(health::readyz))],
            ))
            .service(resource(
                "/metrics",
                vec![(Method::GET, web::to(observability::metrics))],
            ))
            .service(resource(
                "/api/openapi.json",
                vec![(Method::GET, web::to(openapi::openapi_json))],
            ))
            .service(resource(
                "/api/v1/compare-faces",
                vec![(Method::POST, web::to(faces::compare_v1))],
            ))
            .service(
                resource(
                    "/api/v1/managed-session",
                    vec![(Method::POST, web::to(sessions::create_managed))],
                )
                // a reference image travels in the JSON body
                .app_data(json_config(MAX_SESSION_JSON_BYTES)),
            )
            .service(resource(
                "/api/v1/session",
                vec![(Method::POST, web::to(sessions::create_direct))],
            ))
            .service(resource(
                "/api/v1/sessions",
                vec![(Method::GET, web::to(session_records::list))],
            ))
            .service(resource(
                "/api/v1/session/{id}",
                vec![(Method::DELETE, web::to(session_records::erase))],
            ))
            .service(resource(
                "/api/v1/session/{id}/result",
                vec![(Method::GET, web::to(sessions::result))],
            ))
            .service(resource(
                "/api/v1/session/{id}/photo",
                vec![(Method::GET, web::to(sessions::photo))],
            ))
            .service(resource(
                "/api/v1/session/{id}/audit-frames",
                vec![(Method::GET, web::to(sessions::audit_frames))],
            ))
            .service(resource(
                "/api/v1/session/{id}/webhook-deliveries",
                vec![(Method::GET, web::to(sessions::webhook_deliveries))],
            ))
            .service(resource(
                "/api/v1/compare-with-session",
                vec![(Method::POST, web::to(sessions::compare_with_session))],
            ))
            .service(resource(
                "/ws/{session_id}",
                vec![(Method::GET, web::to(ws::stream))],
            ))
            .service(resource(
                "/verify/{id}",
                vec![(Method::GET, web::to(ui::verify))],
            ))
            .service(resource("/demo", vec![(Method::GET, web::to(ui::demo))]))
            .service(resource(
                "/sdk/facegate.js",
                vec![(Method::GET, web::to(ui::sdk))],
            ))
            .service(resource(
                "/ui/{version}/{path:.*}",
                vec![(Method::GET, web::to(ui::asset))],
            ))
            .service(resource(
                "/api/v2/faces:detect",
                vec![(Method::POST, web::to(faces::detect))],
            ))
            .service(resource(
                "/api/v2/faces:compare",
                vec![(Method::POST, web::to(faces::compare))],
            ))
            .service(resource(
                "/api/v2/collections",
                vec![
                    (Method::GET, web::to(collections::list)),
                    (Method::POST, web::to(collections::create)),
                ],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}",
                vec![
                    (Method::GET, web::to(collections::get)),
                    (Method::DELETE, web::to(collections::delete)),
                ],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}/faces",
                vec![
                    (Method::GET, web::to(collections::list_faces)),
                    (Method::POST, web::to(collections::index_face)),
                ],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}/faces/{face_id}",
                vec![
                    (Method::GET, web::to(collections::get_face)),
                    (Method::DELETE, web::to(collections::delete_face)),
                ],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}/search-by-face/{face_id}",
                vec![(Method::POST, web::to(search::search_by_face))],
            ))
            .service(resource(
                "/api/v2/collections/{external_id}/search-by-image",
                vec![(Method::POST, web::to(search::search_by_image))],
            ))
            .default_service(web::to(crate::error::route_not_found));
    }
}
