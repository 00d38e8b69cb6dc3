//! Verdict rules: pass at or above 0.70 confidence, retry from 0.45 to below 0.70, fail below.

use serde::{Deserialize, Serialize};

use crate::error::DomainError;

/// The outcome of a liveness session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum Verdict {
    Pass,
    Retry,
    Fail,
}

impl Verdict {
    /// Its name in the API and the database (strum, from the variant's name).
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The verdict a stored or sent name names.
    pub fn parse(value: &str) -> Option<Self> {
        value.parse().ok()
    }
}

/// The spec's confidence at and above which a session passes.
pub const PASS_CONFIDENCE: f32 = 0.70;
/// The spec's confidence at and above which a session that does not pass gets `retry`.
pub const RETRY_CONFIDENCE: f32 = 0.45;

/// Confidence cut-offs of the verdict (the spec's values by default).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerdictThresholds {
    pub pass: f32,
    pub retry: f32,
}

impl Default for VerdictThresholds {
    fn default() -> Self {
        Self {
            pass: PASS_CONFIDENCE,
            retry: RETRY_CONFIDENCE,
        }
    }
}

impl VerdictThresholds {
    /// The verdict for a fused confidence in 0..1.
    pub fn verdict(&self, confidence: f32) -> Result<Verdict, DomainError> {
        if !(0.0..=1.0).contains(&confidence) {
            return Err(DomainError::OutOfUnitRange {
                field: "confidence",
            });
        }
        Ok(if confidence >= self.pass {
            Verdict::Pass
        } else if confidence >= self.retry {
            Verdict::Retry
        } else {
            Verdict::Fail
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_boundaries() {
        let t = VerdictThresholds::default();
        assert_eq!(t.verdict(0.70), Ok(Verdict::Pass));
        assert_eq!(t.verdict(0.6999), Ok(Verdict::Retry));
        assert_eq!(t.verdict(0.45), Ok(Verdict::Retry));
        assert_eq!(t.verdict(0.4499), Ok(Verdict::Fail));
        assert!(t.verdict(1.2).is_err());
        assert!(t.verdict(f32::NAN).is_err());
    }
}
