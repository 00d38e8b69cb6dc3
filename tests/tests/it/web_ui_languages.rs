//! The verification page in every language of `web-ui/i18n/`, in Chromium at 320 px wide (the
//! narrowest phone): on the welcome and camera screens no text overflows the width, axe finds
//! nothing, the page logs no error, and Arabic and Hebrew are laid out mirrored (right to
//! left: the list indent and the heading on the right), the others left to right.

use facegate_blackbox_tests::browser::{exclusive_browser, run_browser_script, screenshot_dir};
use facegate_blackbox_tests::{create_key, create_managed_session, repo_root};
use serde_json::{Value, json};

/// Every catalogue shipped, by its file name.
fn languages() -> Vec<String> {
    let mut langs: Vec<String> = std::fs::read_dir(repo_root().join("web-ui/i18n"))
        .expect("web-ui/i18n")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".json").map(str::to_owned)
        })
        .collect();
    langs.sort();
    langs
}

fn check_screen(lang: &str, screen: &str, measured: &Value) {
    let at = format!("{lang} {screen}");
    assert_eq!(measured["overflowing"], json!([]), "{at}: {measured:#}");
    assert_eq!(
        measured["page_width"], measured["width"],
        "{at}: {measured:#}"
    );
    assert_eq!(
        measured["axe"],
        json!([]),
        "{at}: axe: {:#}",
        measured["axe"]
    );
    let right_to_left = matches!(lang, "ar" | "he");
    let dir = if right_to_left { "rtl" } else { "ltr" };
    assert_eq!(measured["dir"], dir, "{at}");
    let (left, right) = (
        measured["heading_gap_left"].as_f64().expect("heading"),
        measured["heading_gap_right"].as_f64().expect("heading"),
    );
    if right_to_left {
        assert!(
            right <= left,
            "{at}: the heading starts on the right: {measured:#}"
        );
    } else {
        assert!(
            left <= right,
            "{at}: the heading starts on the left: {measured:#}"
        );
    }
    if screen == "welcome" {
        let (pad_left, pad_right) = (
            measured["steps_padding_left"].as_f64().expect("steps"),
            measured["steps_padding_right"].as_f64().expect("steps"),
        );
        let (start, end) = if right_to_left {
            (pad_right, pad_left)
        } else {
            (pad_left, pad_right)
        };
        assert!(
            start > 0.0 && end == 0.0,
            "{at}: the list indents at its start: {measured:#}"
        );
    }
}

#[test]
fn every_language_fits_a_320_px_phone_passes_axe_and_mirrors_right_to_left() {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let server = facegate_blackbox_tests::start_server(&[]);
    let key = create_key(&server, "bank");
    let created = create_managed_session(&server, &key, json!({"mode": "active"}));
    let session_url = created["session_url"].as_str().expect("session_url");
    let langs = languages();
    assert!(langs.len() >= 20, "{langs:?}");
    let report = run_browser_script(
        "locales.mjs",
        &json!({
            "name": "languages",
            "url": session_url,
            "langs": langs,
            "shots": screenshot_dir(),
            // the longest locale and a right-to-left one (docs/ui.md shows them)
            "shot_langs": ["de", "ar"],
        }),
    );
    for lang in &langs {
        let entry = &report["languages"][lang];
        assert_eq!(entry["console_errors"], json!([]), "{lang}: {entry:#}");
        for screen in ["welcome", "camera"] {
            check_screen(lang, screen, &entry["screens"][screen]);
        }
    }
}
