//! What the verification page needs to know before it asks for the camera: whether the link
//! is still good, the session's mode, and, for a session that already has a verdict, its end
//! state. Never per-layer scores: this goes to a browser.

use domain::{SessionKind, SessionStatus, Verdict};
use serde::Serialize;
use uuid::Uuid;

use crate::live::redirect_with_session;
use crate::read::Credential;
use crate::{SessionError, SessionResult, SessionService};

/// Where the page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageStart {
    /// The flow can run (a new session, or one whose socket dropped before the verdict).
    Flow,
    /// The session already has a verdict: show it, never the camera.
    Completed,
    /// Unknown session, expired session or wrong token (one answer): no camera request.
    InvalidLink,
}

/// The verification page's start-up state, rendered into the page (HTML-escaped).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyPage {
    pub start: PageStart,
    pub session_id: Option<Uuid>,
    /// `active` or `passive`.
    pub mode: Option<&'static str>,
    /// `managed` or `direct`.
    pub kind: Option<&'static str>,
    pub challenge_count: u32,
    /// The verdict of a completed session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Where "Continue" goes: the caller's `redirect_url` with `session_id` added.
    pub redirect_url: Option<String>,
    /// A direct session whose attempt counter still allows another session (and no captcha
    /// stands in the way of creating it from the page).
    pub can_try_again: bool,
    /// Direct sessions can be created from this deployment's pages.
    pub direct_sessions_enabled: bool,
    /// The welcome screen offers the no-flash path: the session allows it and the screen's
    /// light is on (without the light nothing flashes).
    pub no_flash_offered: bool,
}

impl SessionService {
    /// The page's state for `id` and the URL's `token`. Unknown, expired and wrong-token links
    /// all give [`PageStart::InvalidLink`]; only storage failures are errors.
    pub fn verify_page(&self, id: Uuid, token: &str) -> SessionResult<VerifyPage> {
        let direct_sessions_enabled = self.settings.direct.enabled;
        let session = match self.authorize(id, Credential::Token(token)) {
            Ok(session) => session,
            Err(SessionError::NotFound) => {
                return Ok(VerifyPage {
                    start: PageStart::InvalidLink,
                    session_id: None,
                    mode: None,
                    kind: None,
                    challenge_count: 0,
                    verdict: None,
                    redirect_url: None,
                    can_try_again: false,
                    direct_sessions_enabled,
                    no_flash_offered: false,
                });
            }
            Err(other) => return Err(other),
        };
        let start = if session.status == SessionStatus::Completed {
            PageStart::Completed
        } else {
            PageStart::Flow
        };
        let can_try_again = session.kind == SessionKind::Direct
            && direct_sessions_enabled
            && self.settings.direct.captcha.is_none()
            && session.attempt_number < session.max_attempts
            && session.verdict != Some(Verdict::Pass);
        Ok(VerifyPage {
            start,
            session_id: Some(session.id),
            mode: Some(session.mode.as_str()),
            kind: Some(session.kind.as_str()),
            challenge_count: session.challenge_count,
            verdict: session.verdict,
            redirect_url: session
                .redirect_url
                .as_deref()
                .map(|url| redirect_with_session(url, session.id)),
            can_try_again,
            direct_sessions_enabled,
            no_flash_offered: session.allow_no_flash && self.settings.liveness.illumination_enabled,
        })
    }
}
