//! Liveness sessions: creation with a token stored only as its digest, constant-time token
//! checks, completion, and retention (expiry sweep that also deletes session photos).

use diesel::prelude::*;
use domain::{Session, SessionKind, SessionMode, SessionStatus, TenantId, Verdict};
use uuid::Uuid;

use crate::error::{StorageError, StorageResult};
use crate::schema::sessions;
use crate::{Store, now_millis, parse_uuid, secrets};

/// What a caller supplies to create a session.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub tenant_id: TenantId,
    pub kind: SessionKind,
    pub mode: SessionMode,
    pub reference_id: Option<String>,
    pub redirect_url: Option<String>,
    pub webhook_url: Option<String>,
    pub fingerprint_id: Option<String>,
    pub challenge_count: u32,
    pub max_attempts: u32,
    pub lifetime_ms: i64,
}

#[derive(Queryable, Insertable)]
#[diesel(table_name = sessions)]
struct SessionRow {
    id: String,
    tenant_id: String,
    kind: String,
    mode: String,
    status: String,
    token_digest: Vec<u8>,
    reference_id: Option<String>,
    redirect_url: Option<String>,
    webhook_url: Option<String>,
    fingerprint_id: Option<String>,
    challenge_count: i32,
    attempt_number: i32,
    max_attempts: i32,
    verdict: Option<String>,
    confidence: Option<f64>,
    photo: Option<Vec<u8>>,
    photo_quality_score: Option<f64>,
    created_at: i64,
    expires_at: i64,
    completed_at: Option<i64>,
}

fn kind_str(kind: SessionKind) -> &'static str {
    match kind {
        SessionKind::Managed => "managed",
        SessionKind::Direct => "direct",
    }
}

fn mode_str(mode: SessionMode) -> &'static str {
    match mode {
        SessionMode::Active => "active",
        SessionMode::Passive => "passive",
    }
}

fn verdict_str(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::Retry => "retry",
        Verdict::Fail => "fail",
    }
}

impl SessionRow {
    fn into_domain(self) -> StorageResult<Session> {
        let corrupt = |what: &str, v: &str| StorageError::Corrupt(format!("session {what} `{v}`"));
        Ok(Session {
            id: parse_uuid(&self.id)?,
            tenant_id: TenantId(parse_uuid(&self.tenant_id)?),
            kind: match self.kind.as_str() {
                "managed" => SessionKind::Managed,
                "direct" => SessionKind::Direct,
                other => return Err(corrupt("kind", other)),
            },
            mode: match self.mode.as_str() {
                "active" => SessionMode::Active,
                "passive" => SessionMode::Passive,
                other => return Err(corrupt("mode", other)),
            },
            status: SessionStatus::parse(&self.status)
                .ok_or_else(|| corrupt("status", &self.status))?,
            reference_id: self.reference_id,
            redirect_url: self.redirect_url,
            webhook_url: self.webhook_url,
            fingerprint_id: self.fingerprint_id,
            challenge_count: self.challenge_count.max(0) as u32,
            attempt_number: self.attempt_number.max(0) as u32,
            max_attempts: self.max_attempts.max(0) as u32,
            verdict: match self.verdict.as_deref() {
                None => None,
                Some("pass") => Some(Verdict::Pass),
                Some("retry") => Some(Verdict::Retry),
                Some("fail") => Some(Verdict::Fail),
                Some(other) => return Err(corrupt("verdict", other)),
            },
            confidence: self.confidence.map(|c| c as f32),
            photo_quality_score: self.photo_quality_score.map(|q| q as f32),
            has_photo: self.photo.is_some(),
            created_at: self.created_at,
            expires_at: self.expires_at,
            completed_at: self.completed_at,
        })
    }
}

impl Store {
    /// Creates a session and returns it with its token (shown once; only the digest is stored).
    pub fn create_session(&self, new: &NewSession) -> StorageResult<(Session, String)> {
        let token = secrets::random_hex(32);
        let now = now_millis();
        let row = SessionRow {
            id: Uuid::new_v4().to_string(),
            tenant_id: new.tenant_id.0.to_string(),
            kind: kind_str(new.kind).into(),
            mode: mode_str(new.mode).into(),
            status: SessionStatus::Created.as_str().into(),
            token_digest: self.secret().digest(&token),
            reference_id: new.reference_id.clone(),
            redirect_url: new.redirect_url.clone(),
            webhook_url: new.webhook_url.clone(),
            fingerprint_id: new.fingerprint_id.clone(),
            challenge_count: new.challenge_count as i32,
            attempt_number: 1,
            max_attempts: new.max_attempts as i32,
            verdict: None,
            confidence: None,
            photo: None,
            photo_quality_score: None,
            created_at: now,
            expires_at: now + new.lifetime_ms,
            completed_at: None,
        };
        diesel::insert_into(sessions::table)
            .values(&row)
            .execute(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel("session", e))?;
        Ok((row.into_domain()?, token))
    }

    fn session_row(&self, id: Uuid) -> StorageResult<SessionRow> {
        sessions::table
            .find(id.to_string())
            .first::<SessionRow>(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel("session", e))
    }

    /// The session when `token` is its token (constant-time); otherwise, and for expired or
    /// unknown sessions, `NotFound` (callers cannot tell which).
    pub fn session_with_token(&self, id: Uuid, token: &str) -> StorageResult<Session> {
        let row = self.session_row(id)?;
        if !self.secret().verify(token, &row.token_digest) {
            return Err(StorageError::NotFound { entity: "session" });
        }
        let session = row.into_domain()?;
        if session.is_expired_at(now_millis()) {
            return Err(StorageError::NotFound { entity: "session" });
        }
        Ok(session)
    }

    /// The portrait JPEG of a session, if it still has one (token checked).
    pub fn session_photo(&self, id: Uuid, token: &str) -> StorageResult<Option<Vec<u8>>> {
        self.session_with_token(id, token)?;
        Ok(self.session_row(id)?.photo)
    }

    /// Moves a session to `status` when the lifecycle allows it.
    pub fn set_session_status(&self, id: Uuid, status: SessionStatus) -> StorageResult<Session> {
        let current = self.session_row(id)?.into_domain()?;
        current.status.transition(status)?;
        diesel::update(
            sessions::table
                .find(id.to_string())
                .filter(sessions::status.eq(current.status.as_str())),
        )
        .set(sessions::status.eq(status.as_str()))
        .execute(&mut *self.conn()?)
        .map_err(|e| StorageError::from_diesel("session", e))?;
        self.session_row(id)?.into_domain()
    }

    /// Records the verdict; the photo is kept only for a `pass`.
    pub fn complete_session(
        &self,
        id: Uuid,
        verdict: Verdict,
        confidence: f32,
        photo: Option<(Vec<u8>, f32)>,
    ) -> StorageResult<Session> {
        let current = self.session_row(id)?.into_domain()?;
        current.status.transition(SessionStatus::Completed)?;
        let (photo, quality) = match (verdict, photo) {
            (Verdict::Pass, Some((jpeg, q))) => (Some(jpeg), Some(f64::from(q))),
            _ => (None, None),
        };
        diesel::update(sessions::table.find(id.to_string()))
            .set((
                sessions::status.eq(SessionStatus::Completed.as_str()),
                sessions::verdict.eq(Some(verdict_str(verdict))),
                sessions::confidence.eq(Some(f64::from(confidence))),
                sessions::photo.eq(photo),
                sessions::photo_quality_score.eq(quality),
                sessions::completed_at.eq(Some(now_millis())),
            ))
            .execute(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel("session", e))?;
        self.session_row(id)?.into_domain()
    }

    /// Deletes a session's photo when its purpose has ended (for example after download).
    pub fn delete_session_photo(&self, id: Uuid) -> StorageResult<()> {
        diesel::update(sessions::table.find(id.to_string()))
            .set(sessions::photo.eq(None::<Vec<u8>>))
            .execute(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel("session", e))
            .map(|_| ())
    }

    /// Retention sweep: expires unfinished sessions past `expires_at` and deletes the photo of
    /// every session past `expires_at`. Returns (sessions expired, photos deleted).
    pub fn sweep_expired_sessions(&self, now: i64) -> StorageResult<(usize, usize)> {
        let mut conn = self.conn()?;
        conn.transaction::<_, diesel::result::Error, _>(|c| {
            let expired =
                diesel::update(sessions::table.filter(sessions::expires_at.le(now)).filter(
                    sessions::status.eq_any([
                        SessionStatus::Created.as_str(),
                        SessionStatus::InProgress.as_str(),
                    ]),
                ))
                .set(sessions::status.eq(SessionStatus::Expired.as_str()))
                .execute(c)?;
            let photos = diesel::update(
                sessions::table
                    .filter(sessions::expires_at.le(now))
                    .filter(sessions::photo.is_not_null()),
            )
            .set(sessions::photo.eq(None::<Vec<u8>>))
            .execute(c)?;
            Ok((expired, photos))
        })
        .map_err(|e| StorageError::from_diesel("session", e))
    }
}
