//! Every reason code of the enum is documented: docs/api.md's reason table has a row for each
//! code (the portrait's as `portrait_requirement_failed:<requirement>`, every requirement named
//! in the `photo_quality` paragraph), each with what a backend should do.

use facegate_domain::{PortraitRequirement, ReasonCode};

#[test]
fn every_reason_code_has_a_row_in_the_api_docs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.md");
    let api = std::fs::read_to_string(&path).expect("docs/api.md");
    let rows: Vec<Vec<&str>> = api
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| line.split('|').map(str::trim).collect())
        .collect();
    for code in ReasonCode::all() {
        let name = match code {
            ReasonCode::PortraitRequirementFailed(_) => {
                "`portrait_requirement_failed:<requirement>`".to_string()
            }
            other => format!("`{}`", other.code()),
        };
        let row = rows
            .iter()
            .find(|cells| cells.get(1) == Some(&name.as_str()));
        let action = row.and_then(|cells| cells.get(3)).copied().unwrap_or("");
        assert!(
            ["retry", "manual review", "block", "if you need"]
                .iter()
                .any(|a| action.starts_with(a)),
            "docs/api.md has no row for {name} with an action: {row:?}"
        );
    }
    for requirement in PortraitRequirement::ALL {
        assert!(
            api.contains(&format!("`{}`", requirement.as_str())),
            "docs/api.md does not name the requirement {}",
            requirement.as_str()
        );
    }
}
