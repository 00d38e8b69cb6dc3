//! Every enum that crosses a layer by name has one spelling: the name strum derives for the
//! database and the API (`as_str`, `parse`) is the name serde writes, and parsing it gives the
//! value back.

use facegate_domain::{
    DeliveryStatus, PortraitRequirement, SessionKind, SessionMode, SessionStatus, Verdict,
};

fn serde_name(value: impl serde::Serialize) -> String {
    serde_json::to_value(value)
        .expect("serialises")
        .as_str()
        .expect("a string")
        .to_owned()
}

#[test]
fn the_stored_name_is_the_serde_name_and_parses_back() {
    for kind in [SessionKind::Managed, SessionKind::Direct] {
        assert_eq!(kind.as_str(), serde_name(kind));
        assert_eq!(SessionKind::parse(kind.as_str()), Some(kind));
    }
    for mode in [SessionMode::Active, SessionMode::Passive] {
        assert_eq!(mode.as_str(), serde_name(mode));
        assert_eq!(SessionMode::parse(mode.as_str()), Some(mode));
    }
    for status in [
        SessionStatus::Created,
        SessionStatus::InProgress,
        SessionStatus::Completed,
        SessionStatus::Expired,
    ] {
        assert_eq!(status.as_str(), serde_name(status));
        assert_eq!(SessionStatus::parse(status.as_str()), Some(status));
    }
    for verdict in [Verdict::Pass, Verdict::Retry, Verdict::Fail] {
        assert_eq!(verdict.as_str(), serde_name(verdict));
        assert_eq!(Verdict::parse(verdict.as_str()), Some(verdict));
    }
    for status in [
        DeliveryStatus::Pending,
        DeliveryStatus::Delivered,
        DeliveryStatus::Failed,
    ] {
        assert_eq!(status.as_str(), serde_name(status));
        assert_eq!(DeliveryStatus::parse(status.as_str()), Some(status));
    }
    for requirement in PortraitRequirement::ALL {
        assert_eq!(requirement.as_str(), serde_name(requirement));
    }
    assert_eq!(PortraitRequirement::ALL.len(), 15);
}

#[test]
fn a_name_in_another_spelling_is_refused() {
    assert_eq!(SessionMode::parse("Passive"), None);
    assert_eq!(SessionMode::parse(" passive"), None);
    assert_eq!(SessionStatus::parse("InProgress"), None);
    assert_eq!(Verdict::parse(""), None);
}
