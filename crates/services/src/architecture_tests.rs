//! Keeps docs/architecture.md's crate-dependency table true: each row must list exactly the
//! workspace crates that the crate's `Cargo.toml` names under `[dependencies]`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Workspace crates by the name the manifests use, and where each lives.
const CRATES: [(&str, &str); 12] = [
    ("domain", "crates/domain"),
    ("inference", "crates/inference"),
    ("face-engine", "crates/face-engine"),
    ("liveness-engine", "crates/liveness-engine"),
    ("liveness-rig", "crates/liveness-rig"),
    ("storage", "crates/storage"),
    ("webhooks", "crates/webhooks"),
    ("sessions", "crates/sessions"),
    ("app", "crates/app"),
    ("services", "crates/services"),
    ("http", "crates/http"),
    ("facegate", "bins/facegate"),
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The workspace crates named in a manifest's `[dependencies]` section.
fn manifest_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut section = "";
    let mut found = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name;
            continue;
        }
        if section != "dependencies" {
            continue;
        }
        let key = line.split(['.', '=', ' ']).next().unwrap_or_default();
        if CRATES.iter().any(|(name, _)| *name == key) {
            found.insert(key.to_owned());
        }
    }
    found
}

/// The table's rows: crate → the crates its row lists.
fn documented_dependencies(doc: &str) -> Vec<(String, BTreeSet<String>)> {
    doc.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            let [name, deps] = cells[..] else { return None };
            let name = name.strip_suffix(" (the binary)").unwrap_or(name);
            CRATES.iter().any(|(known, _)| *known == name).then(|| {
                let listed = deps
                    .split(',')
                    .map(str::trim)
                    .filter(|d| !d.is_empty() && *d != "–")
                    .map(str::to_owned)
                    .collect();
                (name.to_owned(), listed)
            })
        })
        .collect()
}

#[test]
fn the_crate_dependency_table_matches_the_manifests() {
    let doc =
        std::fs::read_to_string(repo().join("docs/architecture.md")).expect("architecture.md");
    let documented = documented_dependencies(&doc);
    assert_eq!(
        documented
            .iter()
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>(),
        CRATES.iter().map(|(name, _)| *name).collect::<Vec<_>>(),
        "one row per workspace crate, in build order"
    );
    for ((name, listed), (_, dir)) in documented.iter().zip(CRATES) {
        let manifest =
            std::fs::read_to_string(repo().join(dir).join("Cargo.toml")).expect("Cargo.toml");
        assert_eq!(
            listed,
            &manifest_dependencies(&manifest),
            "docs/architecture.md's row for {name} against {dir}/Cargo.toml"
        );
    }
}
