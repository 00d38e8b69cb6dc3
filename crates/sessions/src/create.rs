//! Creating sessions: managed (a tenant's API key; redirect and webhook URLs through the SSRF
//! guard) and direct (no key; switchable, attempts counted per fingerprint and client address,
//! an optional captcha).

use std::net::IpAddr;

use domain::{FaceModel, Session, SessionKind, SessionMode, SessionSeed, TenantId};
use liveness_engine::LivenessSession;
use storage::sessions::NewSession;

use crate::{CaptchaVerifier, SessionError, SessionResult, SessionService};

/// Longest `reference_id` and `fingerprint_id`.
pub const MAX_TEXT_FIELD: usize = 256;

/// `POST /api/v1/managed-session`.
#[derive(Debug, Clone, Default)]
pub struct ManagedSessionRequest {
    pub redirect_url: Option<String>,
    pub webhook_url: Option<String>,
    pub reference_id: Option<String>,
    pub mode: Option<String>,
    /// Liveness with verify: the customer's ID photo, base64 (at most 8 MB decoded).
    pub reference_image: Option<String>,
    /// Similarity at which the portrait matches the reference (0..=1; default the
    /// deployment's compare threshold, 0.65).
    pub match_threshold: Option<f32>,
    /// The face model the reference is embedded and later compared with (default
    /// [`FaceModel::DEFAULT`]); recorded with the reference.
    pub face_model: Option<FaceModel>,
    /// Whether the person may choose the no-flash path (default: the deployment's
    /// `liveness.illumination.allow_no_flash`; `true` where the deployment turned it off is
    /// refused).
    pub allow_no_flash: Option<bool>,
}

/// `POST /api/v1/session`.
#[derive(Debug, Clone, Default)]
pub struct DirectSessionRequest {
    pub fingerprint_id: Option<String>,
    pub captcha_token: Option<String>,
    /// Extension: `passive`, or omitted for active.
    pub mode: Option<String>,
}

/// A new session with its token (shown once) and its verification page.
#[derive(Debug, Clone)]
pub struct CreatedSession {
    pub session: Session,
    pub token: String,
    pub session_url: String,
}

fn parse_mode(mode: Option<&str>) -> SessionResult<SessionMode> {
    match mode {
        None => Ok(SessionMode::default()),
        Some(name) => SessionMode::parse(name).ok_or(SessionError::InvalidMode),
    }
}

/// A `reference_id` as sent: 1 to 256 characters, none of them a control character.
pub(crate) fn check_reference_id(reference: &str) -> SessionResult<()> {
    if printable(reference) {
        Ok(())
    } else {
        Err(SessionError::InvalidReferenceId {
            max: MAX_TEXT_FIELD,
        })
    }
}

fn printable(value: &str) -> bool {
    !value.is_empty()
        && value.chars().count() <= MAX_TEXT_FIELD
        && !value.chars().any(char::is_control)
}

impl SessionService {
    /// A new session's seed and the challenge count it draws (what opening it will ask).
    fn draw(&self, mode: SessionMode) -> (SessionSeed, u32) {
        let seed = self.settings.randomness.new_seed();
        let count = LivenessSession::challenge_count(
            &self.settings.liveness,
            mode,
            &mut crate::session_rng(&seed),
        );
        (seed, count as u32)
    }

    fn session_url(&self, session: &Session, token: &str) -> String {
        format!(
            "{}/verify/{}?token={token}",
            self.settings.public_url, session.id
        )
    }

    /// Creates a managed session for `tenant`. Resolves the URLs' hosts and, with a reference
    /// image, runs inference on it: call it off the async workers.
    pub fn create_managed(
        &self,
        tenant: TenantId,
        request: ManagedSessionRequest,
    ) -> SessionResult<CreatedSession> {
        let mode = parse_mode(request.mode.as_deref())?;
        if let Some(reference) = &request.reference_id {
            check_reference_id(reference)?;
        }
        let redirect_url = request
            .redirect_url
            .as_deref()
            .map(|url| {
                self.guard
                    .check_redirect_url(url)
                    .map_err(SessionError::InvalidRedirectUrl)
            })
            .transpose()?;
        let webhook_url = request
            .webhook_url
            .as_deref()
            .map(|url| {
                self.guard
                    .check_webhook_url(url)
                    .map_err(SessionError::InvalidWebhookUrl)
            })
            .transpose()?;
        let match_threshold = self.match_threshold(request.match_threshold)?;
        let allow_no_flash = match request.allow_no_flash {
            None => self.settings.allow_no_flash,
            Some(true) if !self.settings.allow_no_flash => {
                return Err(SessionError::NoFlashDisabled);
            }
            Some(allowed) => allowed,
        };
        let face_model = request.face_model.unwrap_or(FaceModel::DEFAULT);
        let reference_embedding = request
            .reference_image
            .as_deref()
            .map(|image| self.reference_embedding(face_model, image))
            .transpose()?;
        let (draw_seed, challenge_count) = self.draw(mode);
        let new = NewSession {
            tenant_id: tenant,
            kind: SessionKind::Managed,
            mode,
            reference_id: request.reference_id,
            redirect_url: redirect_url.map(String::from),
            webhook_url: webhook_url.map(String::from),
            fingerprint_id: None,
            challenge_count,
            draw_seed,
            attempt_number: 1,
            max_attempts: 1,
            allow_no_flash,
            lifetime_ms: self.settings.lifetime_ms,
            match_threshold: reference_embedding.is_some().then_some(match_threshold),
            reference_face_model: reference_embedding.is_some().then_some(face_model),
            reference_embedding,
        };
        let (session, token) = self.store.create_session(&new)?;
        let session_url = self.session_url(&session, &token);
        Ok(CreatedSession {
            session,
            token,
            session_url,
        })
    }

    /// Creates a direct session for a browser at `client`. Verifies the captcha when one is
    /// configured (a blocking HTTP call): call it off the async workers.
    pub fn create_direct(
        &self,
        client: IpAddr,
        request: DirectSessionRequest,
    ) -> SessionResult<CreatedSession> {
        let policy = &self.settings.direct;
        if !policy.enabled {
            return Err(SessionError::DirectSessionsDisabled);
        }
        let mode = parse_mode(request.mode.as_deref())?;
        if let Some(fingerprint) = &request.fingerprint_id
            && !printable(fingerprint)
        {
            return Err(SessionError::InvalidFingerprint {
                max: MAX_TEXT_FIELD,
            });
        }
        if let Some(captcha) = &policy.captcha {
            let token = request.captcha_token.as_deref().unwrap_or("");
            if token.is_empty() || token.len() > 4096 || !verify_captcha(captcha, token, client) {
                return Err(SessionError::CaptchaFailed);
            }
        }
        let subject = self.store.digest_hex(&format!(
            "direct-attempts|{client}|{}",
            request.fingerprint_id.as_deref().unwrap_or("")
        ));
        let window_ms = policy.window_seconds as i64 * 1000;
        let attempt = self
            .store
            .record_session_attempt(
                &subject,
                self.store.now_millis() - window_ms,
                policy.max_attempts,
            )?
            .ok_or(SessionError::TooManyAttempts {
                retry_after_seconds: policy.window_seconds,
            })?;
        let tenant = self.store.ensure_tenant(&policy.tenant)?.id;
        let (draw_seed, challenge_count) = self.draw(mode);
        let new = NewSession {
            tenant_id: tenant,
            kind: SessionKind::Direct,
            mode,
            reference_id: None,
            redirect_url: None,
            webhook_url: None,
            fingerprint_id: request.fingerprint_id,
            challenge_count,
            draw_seed,
            attempt_number: attempt,
            max_attempts: policy.max_attempts,
            allow_no_flash: self.settings.allow_no_flash,
            lifetime_ms: self.settings.lifetime_ms,
            reference_embedding: None,
            reference_face_model: None,
            match_threshold: None,
        };
        let (session, token) = self.store.create_session(&new)?;
        let session_url = self.session_url(&session, &token);
        Ok(CreatedSession {
            session,
            token,
            session_url,
        })
    }
}

/// The siteverify protocol shared by Turnstile, hCaptcha and reCAPTCHA: a form POST of
/// `secret`, `response` and `remoteip`, answered `{"success": true|false, …}`.
fn verify_captcha(verifier: &CaptchaVerifier, token: &str, client: IpAddr) -> bool {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_secs(10)))
        .max_redirects(0)
        .http_status_as_error(false)
        .build()
        .into();
    let client = client.to_string();
    let answer = agent.post(&verifier.verify_url).send_form([
        ("secret", verifier.secret.as_str()),
        ("response", token),
        ("remoteip", client.as_str()),
    ]);
    match answer {
        Ok(mut response) if response.status().is_success() => response
            .body_mut()
            .with_config()
            .limit(64 * 1024)
            .read_json::<serde_json::Value>()
            .ok()
            .and_then(|v| v.get("success").and_then(serde_json::Value::as_bool))
            .unwrap_or(false),
        Ok(response) => {
            tracing::warn!(
                status = response.status().as_u16(),
                "captcha verifier answered an error"
            );
            false
        }
        Err(e) => {
            tracing::warn!(error = %e, "captcha verifier unreachable");
            false
        }
    }
}
