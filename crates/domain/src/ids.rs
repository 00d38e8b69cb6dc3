//! Identifiers: service-assigned UUIDs and caller-chosen external ids.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::DomainError;

/// The tenant that owns every resource; derived from the API key, never from the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TenantId(pub Uuid);

impl TenantId {
    pub fn new() -> Self {
        Self(Uuid::now_v7())
    }
}

impl Default for TenantId {
    fn default() -> Self {
        Self::new()
    }
}

/// Maximum length of a caller-chosen id (collection `external_id`, `external_face_id`).
pub const EXTERNAL_ID_MAX_LEN: usize = 255;

/// A caller-chosen identifier used in URL paths: 1..=255 characters from
/// `[A-Za-z0-9_.:-]`, so it never needs escaping and never contains `/`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ExternalId(String);

impl ExternalId {
    pub fn parse(field: &'static str, value: &str) -> Result<Self, DomainError> {
        let invalid = |reason: &str| DomainError::InvalidIdentifier {
            field,
            reason: reason.to_owned(),
        };
        if value.is_empty() {
            return Err(invalid("must not be empty"));
        }
        if value.len() > EXTERNAL_ID_MAX_LEN {
            return Err(invalid("must be at most 255 characters"));
        }
        if !value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
        {
            return Err(invalid(
                "may contain only letters, digits, '_', '.', ':' and '-'",
            ));
        }
        Ok(Self(value.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for ExternalId {
    type Error = DomainError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse("external_id", &value)
    }
}

impl From<ExternalId> for String {
    fn from(id: ExternalId) -> Self {
        id.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_ids_reject_slashes_length_and_unicode() {
        assert!(ExternalId::parse("external_id", "customers-2026").is_ok());
        assert!(ExternalId::parse("external_id", "a/b").is_err());
        assert!(ExternalId::parse("external_id", "").is_err());
        assert!(ExternalId::parse("external_id", &"x".repeat(300)).is_err());
        assert!(ExternalId::parse("external_id", "clientèle").is_err());
    }
}
