//! Reading sessions: the result (the spec's fields for a token; mode, reference, timestamps and
//! per-layer scores added only for the owning tenant's API key), the portrait, compare-with-
//! session and the webhook attempt log.

use domain::{FaceModel, LivenessPath, Session, SessionKind, SessionStatus, TenantId, Verdict};
use face_engine::Image;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::outcome::StoredEvidence;
use crate::{MAX_TOKEN_LEN, SessionError, SessionResult, SessionService};

/// Who is reading: the browser's session token, or the owning tenant's API key.
#[derive(Debug, Clone, Copy)]
pub enum Credential<'a> {
    Token(&'a str),
    Tenant(TenantId),
}

/// `GET /api/v1/session/{id}/result`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SessionResultView {
    #[schema(value_type = String, example = "0192c0de-7a1e-7c3b-9a51-4d2e8f6b1a90")]
    pub session_id: Uuid,
    /// `created`, `in_progress` or `completed` (an expired session answers 404). A session
    /// whose client was sent the `verdict` reads `completed`: the verdict is stored before it
    /// is sent.
    #[schema(value_type = String, example = "completed")]
    pub status: domain::SessionStatus,
    /// `pass`, `fail` or `retry`; null until completed.
    #[schema(value_type = Option<String>, example = "pass")]
    pub verdict: Option<Verdict>,
    pub confidence: Option<f32>,
    /// Where to download the ICAO portrait (after a `pass` only).
    pub photo_url: Option<String>,
    pub photo_quality_score: Option<f32>,
    /// Present only when read with the owning tenant's API key.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub detail: Option<ResultDetail>,
}

/// What the tenant's backend sees beyond the spec's fields (never the browser).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ResultDetail {
    #[schema(value_type = String, example = "passive")]
    pub mode: domain::SessionMode,
    #[schema(value_type = String, example = "managed")]
    pub kind: domain::SessionKind,
    /// `light` (the screen's colours were shown and judged) or `no_flash` (head turns and
    /// motion, no colours: the person chose the path, or the deployment's light check is
    /// off); null until completed.
    #[schema(value_type = Option<String>, example = "light")]
    pub liveness_path: Option<LivenessPath>,
    pub reference_id: Option<String>,
    /// The verdict's evidence: `end_reason` and `layers`, each with `layer`, `score` (0..1),
    /// `reason` and `evidence` (`measured`, `attack`, or `none` where the layer could not
    /// judge; only `attack` fails a session on its own).
    #[schema(value_type = Option<Object>)]
    pub layers: Option<serde_json::Value>,
    /// Stable reason codes (docs/api.md, "Reason codes"): why a `fail` or `retry` did not pass,
    /// and `portrait_requirement_failed:<requirement>` for each requirement a `pass`'s portrait
    /// failed. Empty for a clean `pass` and before the verdict.
    #[schema(value_type = Vec<String>, example = json!(["screen_replay_suspected"]))]
    pub reasons: Vec<String>,
    /// After a `pass`: the portrait checked requirement by requirement (ICAO 9303, ISO/IEC
    /// 29794-5), each with its measured value, limit and pass/fail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub photo_quality: Option<Vec<crate::outcome::RequirementView>>,
    /// Liveness with verify: the portrait compared with the session's `reference_image`, after
    /// a `pass` of a session created with one (absent otherwise).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub face_match: Option<MatchView>,
    /// Unix milliseconds.
    pub created_at: i64,
    pub completed_at: Option<i64>,
    pub expires_at: i64,
}

/// `GET /api/v1/session/{id}/audit-frames`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditFramesView {
    #[schema(value_type = String)]
    pub session_id: Uuid,
    /// JPEG frames as the camera sent them, in capture order, base64 (standard alphabet).
    /// Empty unless the operator set `sessions.audit_frames`.
    #[schema(value_type = Vec<String>, format = Byte)]
    pub frames: Vec<String>,
}

/// The portrait compared with the reference image.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchView {
    /// 0..1.
    pub similarity: f32,
    pub is_match: bool,
    pub threshold: f32,
}

/// The portrait, or why there is none yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhotoAnswer {
    Jpeg(Vec<u8>),
    /// The session has no stored verdict yet: the portrait is still being produced.
    Processing,
}

/// `POST /api/v1/compare-with-session`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CompareWithSessionView {
    pub similarity: f32,
    pub is_match: bool,
    pub threshold: f32,
}

/// One webhook delivery and its attempts.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeliveryView {
    /// The `webhook-id` header of every attempt.
    pub webhook_id: String,
    pub url: String,
    #[schema(value_type = String, example = "delivered")]
    pub status: domain::DeliveryStatus,
    pub attempts: u32,
    pub next_attempt_at: Option<i64>,
    #[schema(value_type = Vec<Object>)]
    pub attempt_log: Vec<domain::WebhookAttempt>,
}

impl SessionService {
    /// The session if `credential` may read it; `NotFound` otherwise (unknown, expired, wrong
    /// token or another tenant's: one answer).
    pub fn authorize(&self, id: Uuid, credential: Credential<'_>) -> SessionResult<Session> {
        let not_found = |error: storage::StorageError| match error {
            storage::StorageError::NotFound { .. } => SessionError::NotFound,
            other => other.into(),
        };
        let allowed = match credential {
            Credential::Token(token) if token.is_empty() || token.len() > MAX_TOKEN_LEN => None,
            Credential::Token(token) => {
                let (session, digest) =
                    self.store.session_and_token_digest(id).map_err(not_found)?;
                self.store.token_matches(token, &digest).then_some(session)
            }
            Credential::Tenant(tenant) => {
                let session = self.store.session(id).map_err(not_found)?;
                (session.tenant_id == tenant).then_some(session)
            }
        };
        allowed
            .filter(|session| !session.is_expired_at(self.store.now_millis()))
            .ok_or(SessionError::NotFound)
    }

    pub fn result(&self, id: Uuid, credential: Credential<'_>) -> SessionResult<SessionResultView> {
        let session = self.authorize(id, credential)?;
        Ok(result_view(session, credential))
    }

    pub fn photo(&self, id: Uuid, credential: Credential<'_>) -> SessionResult<PhotoAnswer> {
        let session = self.authorize(id, credential)?;
        if session.status != SessionStatus::Completed {
            return Ok(PhotoAnswer::Processing);
        }
        if session.verdict != Some(Verdict::Pass) {
            return Err(SessionError::PhotoNotAvailable);
        }
        match self.store.session_photo_of(id)? {
            Some(jpeg) => Ok(PhotoAnswer::Jpeg(jpeg)),
            None => Err(SessionError::PhotoNotAvailable),
        }
    }

    /// Compares `probe` with the portrait of a passed session. A managed session takes its
    /// tenant's key; a direct session takes its token. Runs inference: call it behind the
    /// inference gate, off the async workers.
    pub fn compare_with_session(
        &self,
        id: Uuid,
        tenant: Option<TenantId>,
        token: Option<&str>,
        probe: &[u8],
        threshold: Option<f32>,
    ) -> SessionResult<CompareWithSessionView> {
        let session = match (tenant, token) {
            (Some(tenant), _) => self.authorize(id, Credential::Tenant(tenant))?,
            (None, Some(token)) => self.authorize(id, Credential::Token(token))?,
            (None, None) => return Err(SessionError::NotFound),
        };
        if session.kind == SessionKind::Managed && tenant.is_none() {
            // a managed session's portrait is its tenant's: the browser's token is not enough
            return Err(SessionError::NotFound);
        }
        if session.verdict != Some(Verdict::Pass) {
            return Err(SessionError::NotVerified);
        }
        let portrait = self
            .store
            .session_photo_of(id)?
            .ok_or(SessionError::NotVerified)?;
        let _pass = self.inference.enter();
        let reference = Image::decode(&portrait)?;
        let reference_face = self.engine.primary_face(&reference)?;
        let a = self
            .engine
            .embed_face(FaceModel::DEFAULT, &reference, &reference_face)?;
        let probe = Image::decode_with_limit(probe, self.settings.max_image_pixels)?;
        let probe_face = self.engine.primary_face(&probe)?;
        let b = self
            .engine
            .embed_face(FaceModel::DEFAULT, &probe, &probe_face)?;
        let similarity = self.engine.compare(&a, &b)?;
        let threshold = threshold.unwrap_or(self.settings.compare_threshold);
        Ok(CompareWithSessionView {
            similarity,
            is_match: similarity >= threshold,
            threshold,
        })
    }

    /// The audit frames of a completed session of `tenant` (none unless the operator keeps
    /// them; gone once the session expires).
    pub fn audit_frames(&self, tenant: TenantId, id: Uuid) -> SessionResult<AuditFramesView> {
        use base64::Engine;
        self.authorize(id, Credential::Tenant(tenant))?;
        // none before completion (they are written with the verdict) or after the sweep
        let frames = self.store.session_audit_frames(id)?;
        Ok(AuditFramesView {
            session_id: id,
            frames: frames
                .iter()
                .map(|jpeg| base64::engine::general_purpose::STANDARD.encode(jpeg))
                .collect(),
        })
    }

    /// The webhook delivery of a session of `tenant`, with its attempt log.
    pub fn deliveries(&self, tenant: TenantId, id: Uuid) -> SessionResult<Vec<DeliveryView>> {
        self.authorize(id, Credential::Tenant(tenant))?;
        Ok(self
            .store
            .webhook_deliveries_of_session(tenant, id)?
            .into_iter()
            .map(|(delivery, attempts)| DeliveryView {
                webhook_id: webhooks::webhook_id(delivery.id),
                url: delivery.url,
                status: delivery.status,
                attempts: delivery.attempts,
                next_attempt_at: (delivery.status == domain::DeliveryStatus::Pending)
                    .then_some(delivery.next_attempt_at),
                attempt_log: attempts,
            })
            .collect())
    }
}

/// The result as `credential` may read it (the detail only for the owning tenant's API key).
pub(crate) fn result_view(session: Session, credential: Credential<'_>) -> SessionResultView {
    let id = session.id;
    let photo_url = session.has_photo.then(|| match credential {
        Credential::Token(token) => format!("/api/v1/session/{id}/photo?token={token}"),
        Credential::Tenant(_) => format!("/api/v1/session/{id}/photo"),
    });
    let evidence: Option<StoredEvidence> = session
        .layers
        .as_deref()
        .and_then(|l| serde_json::from_str(l).ok());
    let detail = matches!(credential, Credential::Tenant(_)).then(|| ResultDetail {
        mode: session.mode,
        kind: session.kind,
        liveness_path: evidence.as_ref().map(|e| e.liveness_path),
        reference_id: session.reference_id.clone(),
        layers: evidence
            .as_ref()
            .map(|e| serde_json::json!({"end_reason": e.end_reason, "layers": e.layers})),
        reasons: evidence
            .as_ref()
            .map(|e| e.reasons.clone())
            .unwrap_or_default(),
        photo_quality: evidence.as_ref().and_then(|e| e.photo_quality.clone()),
        face_match: session.face_match.map(|m| MatchView {
            similarity: m.similarity,
            is_match: m.is_match,
            threshold: m.threshold,
        }),
        created_at: session.created_at,
        completed_at: session.completed_at,
        expires_at: session.expires_at,
    });
    SessionResultView {
        session_id: session.id,
        status: session.status,
        verdict: session.verdict,
        confidence: session.confidence,
        photo_url,
        photo_quality_score: session.photo_quality_score,
        detail,
    }
}
