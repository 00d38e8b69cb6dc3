//! How the one binary serves the web UI, without a browser: security headers of the pages,
//! no reflection of the query string, language choice, immutable assets with ETags, the SDK,
//! the demo page only while direct sessions are on, and who may frame the page.

use facegate_blackbox_tests::{
    Server, create_key, create_managed_session, id_and_token, start_server,
};
use serde_json::json;

struct Page {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Page {
    fn header(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map_or("", |(_, v)| v.as_str())
    }
}

fn fetch(url: &str, headers: &[(&str, &str)]) -> Page {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut request = agent.get(url);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let mut response = request.call().expect("request");
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    let body = response.body_mut().read_to_string().unwrap_or_default();
    Page {
        status,
        headers,
        body,
    }
}

fn session(server: &Server) -> (String, String) {
    let key = create_key(server, "bank");
    id_and_token(&create_managed_session(
        server,
        &key,
        json!({"mode": "passive"}),
    ))
}

#[test]
fn the_page_carries_strict_headers_and_never_reflects_the_query() {
    let server = start_server(&[]);
    let (id, token) = session(&server);
    let page = fetch(
        &format!("{}/verify/{id}?token={token}", server.base_url),
        &[],
    );
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy");
    for directive in [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'self'",
        "base-uri 'none'",
    ] {
        assert!(csp.contains(directive), "{directive} in {csp}");
    }
    assert!(!csp.contains("unsafe"), "{csp}");
    assert_eq!(
        page.header("permissions-policy"),
        "camera=(self), microphone=(), geolocation=()"
    );
    assert_eq!(page.header("referrer-policy"), "no-referrer");
    assert_eq!(page.header("cache-control"), "no-store");
    assert!(
        page.body.contains("&quot;start&quot;:&quot;flow&quot;"),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains(&token),
        "the token is never written into the page"
    );
    assert!(!page.body.contains("<script>"), "no inline script");

    let hostile = "%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%3E%3Cimg%20src%3Dx%3E";
    for query in [
        format!("token={hostile}"),
        format!("token={token}&lang={hostile}"),
        format!("token={token}&embed={hostile}"),
        format!("token={token}&{hostile}={hostile}"),
    ] {
        let page = fetch(&format!("{}/verify/{id}?{query}", server.base_url), &[]);
        assert!(
            !page.body.contains("alert(1)") && !page.body.contains("<img src=x"),
            "{query} reflected"
        );
        assert!(
            page.body.contains("<html lang=\"en\" dir=\"ltr\">"),
            "{query}"
        );
    }
    let wrong = fetch(&format!("{}/verify/{id}?token=nope", server.base_url), &[]);
    assert_eq!(wrong.status, 404);
    assert!(wrong.body.contains("invalid_link"));
    assert!(!wrong.body.contains(&id), "nothing of the session is shown");
    let garbage = fetch(
        &format!("{}/verify/..%2F..%2Fetc%2Fpasswd", server.base_url),
        &[],
    );
    assert_eq!(garbage.status, 404);
    assert!(garbage.body.contains("invalid_link"));
}

#[test]
fn language_comes_from_the_query_then_accept_language() {
    let server = start_server(&[]);
    let (id, token) = session(&server);
    let url = format!("{}/verify/{id}?token={token}", server.base_url);
    let lang = |extra: &str, accept: &str| {
        let page = fetch(&format!("{url}{extra}"), &[("Accept-Language", accept)]);
        page.body
            .split("<html lang=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(lang("", "fr-CH, es;q=0.8, en;q=0.5"), "fr");
    assert_eq!(lang("", "xx-YY, es;q=0.8, en;q=0.5"), "es");
    assert_eq!(lang("", "de-DE"), "de");
    assert_eq!(
        lang("", "sw-KE"),
        "en",
        "a language without a catalogue falls back"
    );
    assert_eq!(lang("", "pt"), "pt-BR");
    assert_eq!(lang("", "zh-TW, zh;q=0.9"), "zh-CN");
    assert_eq!(lang("&lang=es", "en-GB"), "es");
    assert_eq!(lang("&lang=xx", "es-MX"), "es");
    assert_eq!(lang("&lang=en", "es"), "en");
    assert_eq!(lang("&lang=AR", "en"), "ar");
    for (asked, dir) in [("ar", "rtl"), ("he", "rtl"), ("hi", "ltr"), ("ja", "ltr")] {
        let page = fetch(&format!("{url}&lang={asked}"), &[]);
        assert!(
            page.body
                .contains(&format!("<html lang=\"{asked}\" dir=\"{dir}\">")),
            "{asked} is written {dir}"
        );
        let catalogue = page
            .body
            .split("data-assets=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .map(|assets| format!("{}{assets}/i18n/{asked}.json", server.base_url))
            .expect("the page names its assets");
        assert_eq!(fetch(&catalogue, &[]).status, 200, "{catalogue}");
    }
}

#[test]
fn assets_are_embedded_immutable_and_revalidated_by_etag() {
    let server = start_server(&[]);
    let (id, token) = session(&server);
    let page = fetch(
        &format!("{}/verify/{id}?token={token}", server.base_url),
        &[],
    );
    let assets = page
        .body
        .split("data-assets=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("asset base")
        .to_owned();
    assert!(assets.starts_with("/ui/"), "{assets}");
    for (path, kind) in [
        ("js/verify.js", "text/javascript"),
        ("js/stream.js", "text/javascript"),
        ("css/app.css", "text/css"),
        ("i18n/es.json", "application/json"),
    ] {
        let asset = fetch(&format!("{}{assets}/{path}", server.base_url), &[]);
        assert_eq!(asset.status, 200, "{path}");
        assert!(asset.header("content-type").starts_with(kind), "{path}");
        assert_eq!(
            asset.header("cache-control"),
            "public, max-age=31536000, immutable"
        );
        let etag = asset.header("etag").to_owned();
        assert!(etag.starts_with('"'), "{etag}");
        let again = fetch(
            &format!("{}{assets}/{path}", server.base_url),
            &[("If-None-Match", &etag)],
        );
        assert_eq!(again.status, 304, "{path}");
    }
    let stale = fetch(&format!("{}/ui/0000/js/verify.js", server.base_url), &[]);
    assert_eq!(
        (stale.status, stale.header("cache-control")),
        (200, "no-cache")
    );
    for missing in [
        format!("{assets}/verify.html"),
        format!("{assets}/../Cargo.toml"),
        format!("{assets}/js/nope.js"),
    ] {
        let page = fetch(&format!("{}{missing}", server.base_url), &[]);
        assert_eq!(page.status, 404, "{missing}");
    }
    let sdk = fetch(&format!("{}/sdk/facegate.js", server.base_url), &[]);
    assert_eq!(sdk.status, 200);
    assert!(sdk.body.contains("Facegate"));
    assert_eq!(sdk.header("cross-origin-resource-policy"), "cross-origin");
}

#[test]
fn the_demo_page_exists_only_with_direct_sessions_and_framing_only_for_listed_origins() {
    let server = start_server(&[("FACEGATE__UI__EMBED_ORIGINS", "https://shop.example")]);
    let demo = fetch(&format!("{}/demo", server.base_url), &[]);
    assert_eq!(demo.status, 200);
    assert!(
        demo.header("content-security-policy")
            .contains("script-src 'self'")
    );
    let (id, token) = session(&server);
    let url = format!("{}/verify/{id}?token={token}", server.base_url);
    let allowed = fetch(&format!("{url}&embed=https://shop.example"), &[]);
    assert!(
        allowed
            .header("content-security-policy")
            .contains("frame-ancestors 'self' https://shop.example")
    );
    assert!(
        allowed
            .body
            .contains("&quot;parent_origin&quot;:&quot;https://shop.example&quot;")
    );
    let refused = fetch(&format!("{url}&embed=https://evil.example"), &[]);
    assert!(refused.body.contains("&quot;parent_origin&quot;:null"));

    let closed = start_server(&[("FACEGATE__SESSIONS__DIRECT__ENABLED", "false")]);
    let demo = fetch(&format!("{}/demo", closed.base_url), &[]);
    assert_eq!(demo.status, 404);
}
