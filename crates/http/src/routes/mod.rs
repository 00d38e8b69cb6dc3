//! Every route of the service (described once, in [`table`]) on an actix `ServiceConfig`, one
//! resource per path: a known path called with a method it does not take is answered 405
//! `method_not_allowed` with an `Allow` header, and an unknown path 404 `route_not_found`.
//! Also the extractors' error answers (JSON, query and path), mapped onto the error codes.

use actix_web::http::{Method, header};
use actix_web::{HttpResponse, ResponseError, Route, web};

use crate::error::{ApiError, Code};
use crate::{AppState, MAX_JSON_BYTES, deadline};

pub mod collections;
pub mod faces;
pub mod front;
pub mod health;
mod languages;
pub mod search;
pub mod session_records;
pub mod sessions;
pub mod table;
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

/// Registers every route of the service (`table::every_route`) on an actix `ServiceConfig`,
/// one resource per path in the table's order, each with the methods the table gives it.
pub(crate) fn configure(state: AppState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg: &mut web::ServiceConfig| {
        let json = json_config(MAX_JSON_BYTES);
        let query =
            web::QueryConfig::default().error_handler(|e, _| crate::params::query_error(&e).into());
        let path = web::PathConfig::default()
            .error_handler(|e, _| ApiError::new(Code::InvalidIdentifier, e.to_string()).into());
        cfg.app_data(web::Data::new(state))
            .app_data(json)
            .app_data(query)
            .app_data(path);
        for path in by_path(table::every_route()) {
            let mut resource = resource(&path.path, path.routes);
            if let Some(limit) = path.json_limit {
                resource = resource.app_data(json_config(limit));
            }
            cfg.service(resource);
        }
        cfg.default_service(web::to(crate::error::route_not_found));
    }
}

/// One path of the table with the routes of its methods.
struct PathRoutes {
    path: String,
    routes: Vec<(Method, Route)>,
    /// The JSON body limit when it is not [`MAX_JSON_BYTES`].
    json_limit: Option<usize>,
}

/// The table's routes grouped by path, in the order each path first appears.
fn by_path(entries: Vec<table::RouteEntry>) -> Vec<PathRoutes> {
    let mut paths: Vec<PathRoutes> = Vec::new();
    for entry in entries {
        match paths.iter_mut().find(|known| known.path == entry.path) {
            Some(known) => {
                known.routes.push((entry.method, entry.route));
                known.json_limit = known.json_limit.or(entry.json_limit);
            }
            None => paths.push(PathRoutes {
                path: entry.path,
                routes: vec![(entry.method, entry.route)],
                json_limit: entry.json_limit,
            }),
        }
    }
    paths
}
