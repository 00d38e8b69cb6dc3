//! The languages of the verification pages: one catalogue per language under `web-ui/i18n/`,
//! chosen from `?lang=`, then `Accept-Language`, then English, and each page's writing
//! direction (right to left for Arabic and Hebrew).

use actix_web::HttpRequest;
use actix_web::http::header;

/// Languages with a catalogue under `web-ui/i18n/` (BCP 47 tags); the first is the fallback.
/// A tag asked for matches exactly (ignoring case), or else by its primary language: `pt` and
/// `pt-PT` get `pt-BR`, every `zh` gets `zh-CN` (simplified script).
pub const LANGUAGES: &[&str] = &[
    "en", "es", "de", "fr", "it", "nl", "pl", "pt-BR", "ro", "el", "cs", "sv", "hu", "ar", "he",
    "hi", "zh-CN", "ja", "ko", "tr", "id",
];

/// Languages written right to left: their pages get `dir="rtl"` and a mirrored layout.
const RIGHT_TO_LEFT: &[&str] = &["ar", "he"];

/// The writing direction of `lang`, as the `dir` attribute takes it.
pub(super) fn direction(lang: &str) -> &'static str {
    if RIGHT_TO_LEFT.contains(&lang) {
        "rtl"
    } else {
        "ltr"
    }
}

/// The catalogue for a BCP 47 `tag`, if any: exact (case-insensitive), else by primary language.
fn catalogue_for(tag: &str) -> Option<&'static str> {
    let tag = tag.trim().replace('_', "-");
    if let Some(exact) = LANGUAGES.iter().find(|l| l.eq_ignore_ascii_case(&tag)) {
        return Some(exact);
    }
    let primary = tag.split('-').next().unwrap_or("").to_ascii_lowercase();
    LANGUAGES
        .iter()
        .copied()
        .find(|l| l.split('-').next() == Some(primary.as_str()))
}

/// `?lang=` when we have it, else the best of `Accept-Language`, else English.
pub(super) fn language(req: &HttpRequest, asked: Option<&str>) -> &'static str {
    if let Some(found) = asked.and_then(catalogue_for) {
        return found;
    }
    let header = req
        .headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    accept_language::parse(header)
        .iter()
        .find_map(|tag| catalogue_for(tag))
        .unwrap_or(LANGUAGES[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::ui::WebUi;

    /// Each message of a catalogue with the sorted names of its `{placeholders}`.
    fn catalogue(lang: &str) -> std::collections::BTreeMap<String, Vec<String>> {
        let file = WebUi::get(&format!("i18n/{lang}.json")).expect("catalogue");
        let value: serde_json::Value = serde_json::from_slice(&file.data).expect("json");
        value
            .as_object()
            .expect("object")
            .iter()
            .map(|(key, text)| {
                let text = text.as_str().expect("every message is text");
                assert!(!text.trim().is_empty(), "{lang}: {key} is empty");
                let mut found: Vec<String> = text
                    .split('{')
                    .skip(1)
                    .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
                    .filter(|name| {
                        !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                    })
                    .map(str::to_owned)
                    .collect();
                found.sort();
                (key.clone(), found)
            })
            .collect()
    }

    #[test]
    fn every_language_has_every_message_with_the_same_placeholders() {
        let english = catalogue("en");
        assert!(english.len() > 40, "{}", english.len());
        assert!(LANGUAGES.len() >= 20, "{}", LANGUAGES.len());
        for lang in LANGUAGES {
            assert_eq!(
                catalogue(lang),
                english,
                "{lang}: keys and placeholders as en"
            );
        }
        let shipped = WebUi::iter()
            .filter(|name| name.starts_with("i18n/"))
            .count();
        assert_eq!(shipped, LANGUAGES.len(), "every catalogue is offered");
    }

    #[test]
    fn the_sdk_speaks_every_language_of_the_page() {
        let sdk = WebUi::get("sdk/facegate.js").expect("the SDK");
        let source = String::from_utf8_lossy(&sdk.data).into_owned();
        let table = source
            .split("/*i18n*/")
            .nth(1)
            .expect("the SDK's message table");
        let table: serde_json::Value = serde_json::from_str(table).expect("json");
        let offered: std::collections::BTreeSet<&str> = table
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        let page: std::collections::BTreeSet<&str> = LANGUAGES.iter().copied().collect();
        assert_eq!(offered, page, "the SDK offers the page's languages");
        for lang in LANGUAGES {
            let file = WebUi::get(&format!("i18n/{lang}.json")).expect("catalogue");
            let catalogue: serde_json::Value = serde_json::from_slice(&file.data).expect("json");
            assert_eq!(table[lang]["title"], catalogue["title"], "{lang}");
            assert_eq!(table[lang]["close"], catalogue["sdk.close"], "{lang}");
        }
    }

    #[test]
    fn tags_find_their_catalogue() {
        assert_eq!(catalogue_for("pt-BR"), Some("pt-BR"));
        assert_eq!(catalogue_for("pt"), Some("pt-BR"));
        assert_eq!(catalogue_for("pt_pt"), Some("pt-BR"));
        assert_eq!(catalogue_for("zh-TW"), Some("zh-CN"));
        assert_eq!(catalogue_for("ZH-cn"), Some("zh-CN"));
        assert_eq!(catalogue_for("ar-EG"), Some("ar"));
        assert_eq!(catalogue_for("xx"), None);
        assert_eq!(direction("he"), "rtl");
        assert_eq!(direction("de"), "ltr");
    }
}
