//! Session records for the tenant's backend: the list it reconciles and audits by (filtered by
//! `reference_id`, status, verdict and creation time, newest first, paged, never an image) and
//! erasure on a person's request before the lifetime ends.

use domain::{SessionStatus, TenantId, Verdict};
use serde::Serialize;
use storage::session_records::{Erasure, SessionCursor, SessionFilter};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::read::{Credential, SessionResultView, result_view};
use crate::{SessionError, SessionResult, SessionService};

/// The largest page of the session list, and the page when none is asked for.
pub const MAX_PAGE: usize = 100;
pub const DEFAULT_PAGE: usize = 20;

/// `GET /api/v1/sessions` as the backend asked for it (text as sent; checked here).
#[derive(Debug, Clone, Default)]
pub struct SessionListQuery {
    pub reference_id: Option<String>,
    pub status: Option<String>,
    pub verdict: Option<String>,
    /// Unix ms, inclusive.
    pub created_after: Option<String>,
    /// Unix ms, exclusive.
    pub created_before: Option<String>,
    pub max_results: Option<String>,
    pub next_token: Option<String>,
}

/// `GET /api/v1/sessions`: one page, newest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SessionListView {
    /// Each session as `GET /api/v1/session/{id}/result` answers the API key.
    pub sessions: Vec<SessionResultView>,
    /// Pass as `next_token` for the next page; null on the last page.
    pub next_token: Option<String>,
}

fn invalid(message: impl Into<String>) -> SessionError {
    SessionError::InvalidListParameter(message.into())
}

fn unix_ms(name: &str, raw: Option<&str>) -> SessionResult<Option<i64>> {
    raw.map(|raw| {
        raw.trim()
            .parse::<i64>()
            .ok()
            .filter(|t| *t >= 0)
            .ok_or_else(|| {
                invalid(format!(
                    "`{name}` must be unix milliseconds (an integer >= 0)"
                ))
            })
    })
    .transpose()
}

impl SessionListQuery {
    fn filter(&self) -> SessionResult<SessionFilter> {
        let status = match self.status.as_deref() {
            None => None,
            Some(name) => Some(
                SessionStatus::parse(name)
                    .filter(|s| *s != SessionStatus::Expired)
                    .ok_or_else(|| {
                        invalid("`status` must be `created`, `in_progress` or `completed`")
                    })?,
            ),
        };
        let verdict = match self.verdict.as_deref() {
            None => None,
            Some(name) => Some(
                Verdict::parse(name)
                    .ok_or_else(|| invalid("`verdict` must be `pass`, `fail` or `retry`"))?,
            ),
        };
        if let Some(reference_id) = &self.reference_id {
            crate::create::check_reference_id(reference_id)?;
        }
        Ok(SessionFilter {
            reference_id: self.reference_id.clone(),
            status,
            verdict,
            created_from: unix_ms("created_after", self.created_after.as_deref())?,
            created_before: unix_ms("created_before", self.created_before.as_deref())?,
        })
    }

    fn page_size(&self) -> SessionResult<usize> {
        let Some(raw) = self.max_results.as_deref() else {
            return Ok(DEFAULT_PAGE);
        };
        raw.trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_PAGE).contains(n))
            .ok_or_else(|| {
                invalid(format!(
                    "`max_results` must be an integer from 1 to {MAX_PAGE}"
                ))
            })
    }

    fn cursor(&self) -> SessionResult<Option<SessionCursor>> {
        self.next_token
            .as_deref()
            .map(|token| {
                SessionCursor::parse(token)
                    .ok_or_else(|| invalid("`next_token` is not one this list returned"))
            })
            .transpose()
    }
}

impl SessionService {
    /// One page of `tenant`'s sessions (expired ones are not listed).
    pub fn list(
        &self,
        tenant: TenantId,
        query: &SessionListQuery,
    ) -> SessionResult<SessionListView> {
        let page = self.store.list_sessions(
            tenant,
            &query.filter()?,
            query.page_size()?,
            query.cursor()?,
        )?;
        Ok(SessionListView {
            sessions: page
                .items
                .into_iter()
                .map(|session| result_view(session, Credential::Tenant(tenant)))
                .collect(),
            next_token: page.next_token,
        })
    }

    /// Erases session `id` of `tenant` now: its portrait, audit frames, reference embedding,
    /// result and queued webhook. A stream in progress stops at its next lease renewal or
    /// verdict, whichever comes first, and stores nothing. Erasing it again is not an error;
    /// an unknown id, or another tenant's session, is `NotFound`.
    pub fn erase(&self, tenant: TenantId, id: Uuid) -> SessionResult<()> {
        match self.store.erase_session(tenant, id)? {
            Erasure::Erased => {
                tracing::info!(session = %id, "session erased on request");
                Ok(())
            }
            Erasure::AlreadyErased => Ok(()),
            Erasure::Unknown => Err(SessionError::NotFound),
        }
    }
}
