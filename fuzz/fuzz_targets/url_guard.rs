//! Fuzzes the SSRF guard's lookup-free checks with arbitrary text (no DNS is ever asked: only
//! address literals reach the full checks). Findings: a panic; an accepted URL that is not
//! https or carries credentials; an address literal judged differently by the two checks than
//! by `is_public`; or a URL whose serialised form (what is stored) is judged differently from
//! what was checked.
#![no_main]

use facegate_webhooks::AddressGuard;
use facegate_webhooks::guard::{MAX_URL_LEN, UrlTarget, is_public, parse_target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((url, target)) = parse_target(raw) else {
        return;
    };
    assert_eq!(url.scheme(), "https");
    assert!(url.username().is_empty() && url.password().is_none());
    assert!(raw.len() <= MAX_URL_LEN);
    if url.as_str().len() <= MAX_URL_LEN {
        let (_, again) = parse_target(url.as_str()).expect("the stored form parses again");
        assert_eq!(again, target, "{raw:?} stored as {}", url.as_str());
    }
    if let UrlTarget::Address(ip) = target {
        let guard = AddressGuard::default();
        assert_eq!(guard.check_redirect_url(raw).is_ok(), is_public(ip), "{raw:?}");
        assert_eq!(guard.check_webhook_url(raw).is_ok(), is_public(ip), "{raw:?}");
    }
});
