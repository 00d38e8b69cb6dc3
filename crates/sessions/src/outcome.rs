//! What a verdict leaves behind, assembled before the one transaction that stores it: the
//! portrait (after a `pass` only) with its requirement checks, the match with the reference,
//! the reason codes, the evidence JSON read with the API key, the audit frames when the
//! operator keeps them, and the webhook's payload.

use domain::{LivenessPath, ReasonCode, Session, Verdict};
use liveness_engine::{LivenessSession, VerdictReport};
use serde::{Deserialize, Serialize};
use storage::outbox::NewDelivery;
use storage::sessions::SessionOutcome;
use utoipa::ToSchema;

use crate::SessionService;

/// One portrait requirement as the API-key result shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RequirementView {
    /// `head_size`, `margins`, `eye_line`, `yaw`, `pitch`, `roll`, `eyes_open`,
    /// `mouth_closed`, `sharpness`, `exposure`, `illumination_uniformity`,
    /// `background_uniformity`, `single_face`, `eyes_visible` or `lower_face_visible`.
    #[schema(example = "eyes_visible")]
    pub requirement: String,
    /// The measured value (units per requirement: docs/accuracy.md).
    pub value: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f32>,
    pub passed: bool,
}

/// The evidence stored with a verdict (the `layers` column): read back by the API-key result.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct StoredEvidence {
    #[serde(default)]
    pub end_reason: serde_json::Value,
    #[serde(default)]
    pub layers: serde_json::Value,
    #[serde(default)]
    pub reasons: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo_quality: Option<Vec<RequirementView>>,
    /// Absent in records stored before the no-flash path existed (all of them `light`).
    #[serde(default)]
    pub liveness_path: LivenessPath,
}

/// What [`SessionService::outcome_of`] assembled.
pub(crate) struct Finished {
    pub outcome: SessionOutcome,
    pub webhook: Option<NewDelivery>,
}

impl SessionService {
    /// The outcome of `session` concluded by `report`; renders the portrait after a `pass`.
    pub(crate) fn outcome_of(
        &self,
        session: &Session,
        path: LivenessPath,
        report: &VerdictReport,
        engine_session: Option<&LivenessSession>,
        audit_frames: Vec<Vec<u8>>,
    ) -> Finished {
        let portrait = match report.verdict {
            Verdict::Pass => match engine_session.and_then(LivenessSession::portrait) {
                Some(Ok(portrait)) => Some(portrait),
                other => {
                    tracing::warn!(session = %session.id, error = ?other.and_then(Result::err), "pass without a portrait");
                    None
                }
            },
            Verdict::Retry | Verdict::Fail => None,
        };
        let mut reasons = report.reasons.clone();
        let requirements = portrait.as_ref().map(|p| {
            reasons.extend(
                p.quality
                    .failed()
                    .map(ReasonCode::PortraitRequirementFailed),
            );
            p.quality
                .requirements
                .iter()
                .map(|c| RequirementView {
                    requirement: c.requirement.as_str().to_string(),
                    value: c.value,
                    min: c.min,
                    max: c.max,
                    passed: c.passed,
                })
                .collect::<Vec<_>>()
        });
        let reason_codes: Vec<String> = reasons.iter().map(|r| r.code()).collect();
        let photo = portrait.map(|p| (p.jpeg, p.quality.photo_quality_score));
        let face_match = match &photo {
            Some((jpeg, _)) => self.match_portrait(session, jpeg).unwrap_or_else(|e| {
                tracing::warn!(session = %session.id, error = %e, "portrait not matched with the reference");
                None
            }),
            None => None,
        };
        let evidence = StoredEvidence {
            end_reason: serde_json::json!(report.end_reason),
            layers: serde_json::json!(report.layers),
            reasons: reason_codes.clone(),
            photo_quality: requirements,
            liveness_path: path,
        };
        let webhook = session.webhook_url.as_ref().map(|url| NewDelivery {
            url: url.clone(),
            payload: serde_json::json!({
                "type": "session.completed",
                "session_id": session.id,
                "verdict": report.verdict,
                "confidence": report.confidence,
                "reasons": reason_codes,
                "reference_id": session.reference_id,
                "mode": session.mode.as_str(),
                "liveness_path": path,
                "match": face_match.as_ref().map(crate::verify::match_json),
                "completed_at": self.store.now_millis(),
            })
            .to_string(),
        });
        Finished {
            outcome: SessionOutcome {
                verdict: report.verdict,
                confidence: report.confidence,
                layers_json: serde_json::to_string(&evidence).unwrap_or_default(),
                photo,
                face_match,
                audit_frames,
            },
            webhook,
        }
    }
}
