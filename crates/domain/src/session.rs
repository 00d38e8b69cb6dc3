//! Liveness sessions: every field of the spec, the kind (managed or direct), the mode, the
//! status lifecycle, attempts and expiry.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::UnixMillis;
use crate::error::DomainError;
use crate::ids::TenantId;
use crate::verdict::Verdict;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum SessionKind {
    /// Created server to server with an API key.
    Managed,
    /// Created by a frontend without an API key.
    Direct,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum SessionMode {
    #[default]
    Active,
    Passive,
}

impl SessionKind {
    /// Its name in the API and the database (strum, from the variant's name).
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The kind a stored or sent name names.
    pub fn parse(value: &str) -> Option<Self> {
        value.parse().ok()
    }
}

impl SessionMode {
    /// Its name in the API and the database (strum, from the variant's name).
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The mode a stored or sent name names.
    pub fn parse(value: &str) -> Option<Self> {
        value.parse().ok()
    }
}

/// How a session proved liveness: `light` (the screen's colour sequence was shown and its
/// reflection judged) or `no_flash` (no colours: head-movement challenges and motion, the path
/// a person sensitive to flashing light chooses, or a deployment with the light check off).
/// Its names in the API, the WebSocket query and the stored evidence are serde's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LivenessPath {
    #[default]
    Light,
    NoFlash,
}

/// Lifecycle: `created` → `in_progress` → `completed`; `created`/`in_progress` → `expired`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum SessionStatus {
    Created,
    InProgress,
    Completed,
    Expired,
}

impl SessionStatus {
    /// Whether the lifecycle allows moving from `self` to `next`.
    pub fn can_become(self, next: SessionStatus) -> bool {
        use SessionStatus::*;
        matches!(
            (self, next),
            (Created, InProgress)
                | (Created, Completed)
                | (InProgress, Completed)
                | (Created, Expired)
                | (InProgress, Expired)
        )
    }

    pub fn transition(self, next: SessionStatus) -> Result<SessionStatus, DomainError> {
        if self.can_become(next) {
            Ok(next)
        } else {
            Err(DomainError::InvalidTransition {
                from: self.as_str(),
                to: next.as_str(),
            })
        }
    }

    /// Its name in the API and the database (strum, from the variant's name).
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The status a stored or sent name names.
    pub fn parse(value: &str) -> Option<Self> {
        value.parse().ok()
    }
}

/// A liveness session as stored. The token itself is never stored, only its digest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Session {
    pub id: Uuid,
    pub tenant_id: TenantId,
    pub kind: SessionKind,
    pub mode: SessionMode,
    pub status: SessionStatus,
    pub reference_id: Option<String>,
    pub redirect_url: Option<String>,
    pub webhook_url: Option<String>,
    pub fingerprint_id: Option<String>,
    pub challenge_count: u32,
    pub attempt_number: u32,
    pub max_attempts: u32,
    /// Whether the person may choose the no-flash path (set at creation).
    pub allow_no_flash: bool,
    pub verdict: Option<Verdict>,
    pub confidence: Option<f32>,
    pub photo_quality_score: Option<f32>,
    /// Per-layer scores of the verdict as JSON (for API-key reads only, never the browser).
    pub layers: Option<String>,
    pub has_photo: bool,
    /// Liveness with verify: whether the reference face's embedding is still held (from
    /// creation until the session completes or expires).
    pub has_reference: bool,
    /// The similarity at which the portrait matches the reference (set at creation).
    pub match_threshold: Option<f32>,
    /// The portrait compared with the reference, after a `pass` of a session created with one.
    pub face_match: Option<FaceMatch>,
    pub created_at: UnixMillis,
    pub expires_at: UnixMillis,
    pub completed_at: Option<UnixMillis>,
}

/// The live portrait compared with the session's reference image (liveness with verify).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FaceMatch {
    /// 0..1, the face engine's calibrated similarity.
    pub similarity: f32,
    /// `similarity >= threshold`.
    pub is_match: bool,
    pub threshold: f32,
}

impl FaceMatch {
    pub fn new(similarity: f32, threshold: f32) -> Self {
        Self {
            similarity,
            is_match: similarity >= threshold,
            threshold,
        }
    }
}

impl Session {
    /// Past its lifetime (completion extends the lifetime so the result stays readable for at
    /// least one full lifetime after the verdict).
    pub fn is_expired_at(&self, now: UnixMillis) -> bool {
        self.status == SessionStatus::Expired || now >= self.expires_at
    }
}

#[cfg(test)]
mod tests {
    use super::SessionStatus::*;

    #[test]
    fn lifecycle_allows_only_forward_moves() {
        assert!(Created.can_become(InProgress));
        assert!(InProgress.can_become(Completed));
        assert!(InProgress.can_become(Expired));
        assert!(!Completed.can_become(InProgress));
        assert!(!Expired.can_become(Completed));
        assert!(!Completed.can_become(Expired));
        assert!(Completed.transition(Created).is_err());
        for s in [Created, InProgress, Completed, Expired] {
            assert_eq!(super::SessionStatus::parse(s.as_str()), Some(s));
        }
    }
}

/// A session's one source of randomness: 32 bytes drawn when the session is created and kept
/// with it until it ends. Its challenge count (shown at creation), its challenges and its
/// light sequence (drawn when a client connects) all come from one generator seeded with it,
/// so every replica that opens the session draws the same. Never serialised, never logged.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SessionSeed([u8; 32]);

impl SessionSeed {
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl std::fmt::Debug for SessionSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // it predicts the session's challenges and colours: never printed
        f.write_str("SessionSeed(..)")
    }
}
