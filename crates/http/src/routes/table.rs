//! The one description of every route. Each documented operation is named once, by its
//! handler: the router takes the path and the method from the handler's `#[utoipa::path]`
//! annotation, and the OpenAPI document ([`DocumentedOperations`], merged into
//! `openapi::ApiDoc`) lists the same handlers, so no path or method is written twice. The two
//! routes no OpenAPI operation can describe (the WebSocket, the UI's assets) are listed with
//! their path.

use actix_web::http::Method;
use actix_web::{Route, web};
use utoipa::openapi::path::HttpMethod;

use super::{collections, faces, front, health, search, session_records, sessions, ui, ws};
use crate::{MAX_SESSION_JSON_BYTES, observability};

/// One route: where, how, what answers, and the JSON body limit when it is not the default.
pub struct RouteEntry {
    pub path: String,
    pub method: Method,
    pub route: Route,
    pub json_limit: Option<usize>,
}

impl RouteEntry {
    /// The route of the operation `P` describes (`#[utoipa::path]` on its handler).
    fn documented<P: utoipa::Path>(route: Route) -> Self {
        let method = match P::methods().as_slice() {
            [only] => actix_method(only),
            other => panic!("{} declares {} methods, not one", P::path(), other.len()),
        };
        Self {
            path: P::path(),
            method,
            route,
            json_limit: None,
        }
    }

    fn undocumented(method: Method, path: &str, route: Route) -> Self {
        Self {
            path: path.to_owned(),
            method,
            route,
            json_limit: None,
        }
    }

    fn json_limit(mut self, bytes: usize) -> Self {
        self.json_limit = Some(bytes);
        self
    }
}

fn actix_method(method: &HttpMethod) -> Method {
    match method {
        HttpMethod::Get => Method::GET,
        HttpMethod::Post => Method::POST,
        HttpMethod::Put => Method::PUT,
        HttpMethod::Delete => Method::DELETE,
        HttpMethod::Options => Method::OPTIONS,
        HttpMethod::Head => Method::HEAD,
        HttpMethod::Patch => Method::PATCH,
        HttpMethod::Trace => Method::TRACE,
    }
}

/// Declares the documented operations once: the OpenAPI derive over their handlers, and the
/// router's entries built from the same handlers' annotations.
macro_rules! operations {
    ($($module:ident :: $handler:ident $(with json_limit $limit:expr)?),* $(,)?) => {
        /// Every documented operation of the service, from its handler's annotation.
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($module::$handler),*))]
        pub struct DocumentedOperations;

        fn documented() -> Vec<RouteEntry> {
            vec![$(
                pastey::paste! {
                    RouteEntry::documented::<$module::[<__path_ $handler>]>(
                        web::to($module::$handler)
                    )
                }
                $(.json_limit($limit))?
            ),*]
        }
    };
}

operations! {
    front::front_door,
    front::api_docs,
    health::healthz,
    health::readyz,
    observability::metrics,
    front::openapi_json,
    faces::compare_v1,
    // a reference image travels in the JSON body
    sessions::create_managed with json_limit MAX_SESSION_JSON_BYTES,
    sessions::create_direct,
    session_records::list,
    session_records::erase,
    sessions::result,
    sessions::photo,
    sessions::audit_frames,
    sessions::webhook_deliveries,
    sessions::compare_with_session,
    ui::verify,
    ui::demo,
    ui::sdk,
    faces::detect,
    faces::compare,
    collections::list,
    collections::create,
    collections::get,
    collections::delete,
    collections::list_faces,
    collections::index_face,
    collections::get_face,
    collections::delete_face,
    search::search_by_face,
    search::search_by_image,
}

/// Every route of the service: the documented operations, then the two no OpenAPI operation
/// describes (the live stream's WebSocket upgrade and the UI's versioned assets).
pub fn every_route() -> Vec<RouteEntry> {
    let mut routes = documented();
    routes.push(RouteEntry::undocumented(
        Method::GET,
        "/ws/{session_id}",
        web::to(ws::stream),
    ));
    routes.push(RouteEntry::undocumented(
        Method::GET,
        "/ui/{version}/{path:.*}",
        web::to(ui::asset),
    ));
    routes
}
