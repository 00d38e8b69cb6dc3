//! The verification web UI, embedded in the binary at compile time from `web-ui/`: the page
//! `/verify/{id}?token=` (its start state rendered in, HTML-escaped), the `/demo` page (only
//! while direct sessions are on), the embeddable SDK `/sdk/facegate.js`, and the static assets
//! under `/ui/{version}/…` (immutable for the build's version, ETag on everything). The pages
//! carry a `self`-only Content-Security-Policy, `Permissions-Policy: camera=(self)` and
//! `Referrer-Policy: no-referrer`, since the token is in the URL.

use std::sync::{Arc, OnceLock};

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use rust_embed::RustEmbed;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::AppState;
use crate::error::ApiError;
use crate::routes::languages::{LANGUAGES, direction, language};

#[derive(RustEmbed)]
#[folder = "../../web-ui/"]
pub(super) struct WebUi;

/// Who may frame the verification page (the SDK's modal), as origins.
#[derive(Debug, Clone, Default)]
pub struct UiSettings {
    embed_origins: Vec<String>,
}

impl UiSettings {
    /// `origins` are `scheme://host[:port]` of the integrators' pages that embed the SDK.
    pub fn new(origins: &[String]) -> Result<Self, String> {
        Ok(Self {
            embed_origins: services::settings::parse_embed_origins(origins)?,
        })
    }

    fn allows(&self, origin: &str) -> bool {
        self.embed_origins.iter().any(|o| o == origin)
    }

    fn frame_ancestors(&self) -> String {
        std::iter::once("'self'")
            .chain(self.embed_origins.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A hash of every embedded file: the path segment that makes asset URLs immutable.
fn asset_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let mut hasher = Sha256::new();
        let mut names: Vec<_> = WebUi::iter().collect();
        names.sort();
        for name in names {
            if let Some(file) = WebUi::get(&name) {
                hasher.update(name.as_bytes());
                hasher.update(file.metadata.sha256_hash());
            }
        }
        hex::encode(&hasher.finalize()[..6])
    })
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn etag_of(file: &rust_embed::EmbeddedFile) -> String {
    format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..12]))
}

fn not_modified(req: &HttpRequest, etag: &str) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|tag| tag.trim() == etag || tag.trim() == "*")
        })
}

/// An embedded file with its ETag and `cache` policy (304 when `If-None-Match` matches).
fn embedded(req: &HttpRequest, name: &str, cache: &'static str) -> Option<HttpResponse> {
    let file = WebUi::get(name)?;
    let etag = etag_of(&file);
    if not_modified(req, &etag) {
        return Some(
            HttpResponse::NotModified()
                .insert_header((header::ETAG, etag))
                .insert_header((header::CACHE_CONTROL, cache))
                .finish(),
        );
    }
    Some(
        HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, content_type(name)))
            .insert_header((header::ETAG, etag))
            .insert_header((header::CACHE_CONTROL, cache))
            .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
            .body(file.data.into_owned()),
    )
}

/// `GET /ui/{version}/{path}`: a static asset. The current version is cached for a year
/// (immutable); any other version (a page from before a restart) is revalidated.
pub async fn asset(req: HttpRequest, path: web::Path<(String, String)>) -> HttpResponse {
    let (version, name) = path.into_inner();
    if name.ends_with(".html") {
        return crate::error::route_not_found().await; // templates are served rendered, never raw
    }
    let cache = if version == asset_version() {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    match embedded(&req, &name, cache) {
        Some(response) => response,
        None => crate::error::route_not_found().await,
    }
}

/// `GET /sdk/facegate.js`: the embeddable SDK (a classic script for integrators' pages).
#[utoipa::path(
    get,
    path = "/sdk/facegate.js",
    tag = "verification UI",
    responses((status = 200, description = "The SDK: `Facegate.verify(sessionUrl)` runs the flow \
        in a modal iframe and resolves with `{sessionId}`", content_type = "text/javascript")),
)]
pub async fn sdk(req: HttpRequest) -> HttpResponse {
    let Some(mut response) = embedded(&req, "sdk/facegate.js", "public, max-age=300") else {
        return crate::error::route_not_found().await;
    };
    response.headers_mut().insert(
        header::HeaderName::from_static("cross-origin-resource-policy"),
        header::HeaderValue::from_static("cross-origin"),
    );
    response
}

/// The query of the pages: `token` (verify), `lang` (both), `embed` (the SDK's parent origin).
#[derive(Debug, Default, Deserialize)]
pub struct PageQuery {
    token: Option<String>,
    lang: Option<String>,
    embed: Option<String>,
}

impl PageQuery {
    /// The page's query; anything unparsable counts as absent (a page never answers 400).
    fn of(req: &HttpRequest) -> Self {
        web::Query::<Self>::from_query(req.query_string())
            .map(web::Query::into_inner)
            .unwrap_or_default()
    }
}

/// `GET /verify/{id}?token=`: the verification page. A wrong, unknown or expired link gets
/// the page in its "link no longer valid" state with 404, and the page never asks for the
/// camera; a session with a verdict shows its end state.
#[utoipa::path(
    get,
    path = "/verify/{id}",
    tag = "verification UI",
    params(
        ("id" = String, Path, description = "The session id"),
        ("token" = String, Query, description = "The session's token"),
        ("lang" = Option<String>, Query, description = "`en` or `es`; else Accept-Language"),
        ("embed" = Option<String>, Query, description = "The SDK's parent origin (one of `ui.embed_origins`)"),
    ),
    responses(
        (status = 200, description = "The verification page", content_type = "text/html"),
        (status = 404, description = "The page saying the link is no longer valid (unknown, expired or wrong token)", content_type = "text/html"),
    ),
)]
pub async fn verify(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let query = PageQuery::of(&req);
    let token = query.token.unwrap_or_default();
    let id = Uuid::parse_str(&id).ok();
    let sessions = state.sessions.clone();
    let page = crate::blocking(move || match id {
        Some(id) => sessions.verify_page(id, &token),
        None => sessions.verify_page(Uuid::nil(), ""),
    })
    .await?;
    let parent = query.embed.filter(|origin| state.ui.allows(origin));
    let status = if page.start == crate::sessions::page::PageStart::InvalidLink {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::OK
    };
    let config = serde_json::json!({
        "page": page,
        "parent_origin": parent,
        "lang": language(&req, query.lang.as_deref()),
    });
    let mut response = render(&state.ui, "verify.html", status, &config);
    if status == StatusCode::NOT_FOUND {
        response
            .extensions_mut()
            .insert(crate::error::RefusedCredential);
    }
    Ok(response)
}

/// `GET /demo`: creates a direct session and runs the flow; served only while direct
/// sessions are enabled.
#[utoipa::path(
    get,
    path = "/demo",
    tag = "verification UI",
    responses(
        (status = 200, description = "The demo page", content_type = "text/html"),
        (status = 404, description = "Direct sessions are switched off (`route_not_found`)"),
    ),
)]
pub async fn demo(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !state.sessions.settings().direct.enabled {
        return crate::error::route_not_found().await;
    }
    let query = PageQuery::of(&req);
    let config = serde_json::json!({"lang": language(&req, query.lang.as_deref())});
    render(&state.ui, "demo.html", StatusCode::OK, &config)
}

/// Fills a page template: `{{lang}}`, `{{assets}}` and `{{config}}` (JSON, HTML-escaped).
fn render(
    ui: &Arc<UiSettings>,
    template: &str,
    status: StatusCode,
    config: &serde_json::Value,
) -> HttpResponse {
    let lang = config["lang"].as_str().unwrap_or(LANGUAGES[0]);
    let config = config.to_string();
    render_filled(
        ui,
        template,
        status,
        &[
            ("lang", lang),
            ("dir", direction(lang)),
            ("config", config.as_str()),
        ],
    )
}

/// Fills `template`'s `{{assets}}` and each `{{name}}` of `fills` (HTML-escaped), and serves it
/// with the pages' headers: no cache, the `self`-only policy, no referrer.
pub(super) fn render_filled(
    ui: &UiSettings,
    template: &str,
    status: StatusCode,
    fills: &[(&str, &str)],
) -> HttpResponse {
    let Some(file) = WebUi::get(template) else {
        return HttpResponse::InternalServerError().finish();
    };
    let mut html = String::from_utf8_lossy(&file.data)
        .replace("{{assets}}", &format!("/ui/{}", asset_version()));
    for (name, value) in fills {
        html = html.replace(&format!("{{{{{name}}}}}"), &escape_html(value));
    }
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::CONTENT_SECURITY_POLICY, page_policy(ui)))
        .insert_header((
            "Permissions-Policy",
            "camera=(self), microphone=(), geolocation=()",
        ))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header(("Cross-Origin-Opener-Policy", "same-origin-allow-popups"))
        .body(html)
}

/// Nothing from elsewhere: scripts, styles, images and sockets from this origin only.
fn page_policy(ui: &UiSettings) -> String {
    format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
         media-src 'self' blob: mediastream:; connect-src 'self'; font-src 'self'; \
         base-uri 'none'; form-action 'none'; frame-ancestors {}",
        ui.frame_ancestors()
    )
}

/// Escapes text for an HTML attribute or element body.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        let escaped = escape_html(r#"{"a":"</script><img src=x onerror='1'>&"}"#);
        assert!(!escaped.contains(['<', '>', '"', '\'']), "{escaped}");
    }

    #[test]
    fn embed_origins_must_be_bare_origins() {
        assert!(UiSettings::new(&["https://shop.example".into()]).is_ok());
        assert!(UiSettings::new(&["https://shop.example:8443".into()]).is_ok());
        assert!(UiSettings::new(&["https://shop.example/path".into()]).is_err());
        assert!(UiSettings::new(&["javascript:alert(1)".into()]).is_err());
        assert!(UiSettings::new(&["shop.example".into()]).is_err());
    }
}
