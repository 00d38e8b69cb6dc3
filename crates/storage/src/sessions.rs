//! Liveness sessions: creation with a token stored only as its digest, constant-time token
//! checks, completion (result, portrait, audit frames and webhook row in one transaction).
//! Retention is `retention.rs`.

use diesel::prelude::*;
use domain::{
    FaceModel, Session, SessionKind, SessionMode, SessionSeed, SessionStatus, TenantId, Verdict,
};
use uuid::Uuid;

use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::sessions;
use crate::{Store, parse_uuid, secrets};

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
    /// What the session's random draws come from; kept until it completes.
    pub draw_seed: SessionSeed,
    /// Which attempt this is (1 for managed sessions; counted for direct ones).
    pub attempt_number: u32,
    pub max_attempts: u32,
    /// Whether the person may choose the no-flash path.
    pub allow_no_flash: bool,
    pub lifetime_ms: i64,
    /// Liveness with verify: the reference face's embedding, held until the session completes
    /// or expires.
    pub reference_embedding: Option<Vec<f32>>,
    /// The face model that embedded the reference.
    pub reference_face_model: Option<FaceModel>,
    pub match_threshold: Option<f32>,
}

#[derive(Queryable, Insertable)]
#[diesel(table_name = sessions)]
pub(crate) struct SessionRow {
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
    layers: Option<String>,
    reference_embedding: Option<Vec<u8>>,
    match_threshold: Option<f64>,
    face_match: Option<String>,
    draw_seed: Option<Vec<u8>>,
    reference_face_model: Option<String>,
    allow_no_flash: bool,
}

/// A session a client has started streaming, with the seed its draws come from.
#[derive(Debug, Clone)]
pub struct BegunSession {
    pub session: Session,
    pub draw_seed: SessionSeed,
}

/// The outcome of a finished liveness session, stored in one transaction with its webhook.
#[derive(Debug, Clone)]
pub struct SessionOutcome {
    pub verdict: Verdict,
    pub confidence: f32,
    /// Per-layer scores as JSON (API-key reads only).
    pub layers_json: String,
    /// The ICAO portrait JPEG and its quality score; kept only for a `pass`.
    pub photo: Option<(Vec<u8>, f32)>,
    /// The portrait compared with the reference (sessions created with one, after a `pass`).
    pub face_match: Option<domain::FaceMatch>,
    /// Frames kept for audit (empty unless the operator turned them on), stored sealed.
    pub audit_frames: Vec<Vec<u8>>,
}

/// A finished session refused a move to `in_progress` or `completed`.
fn refused(status: SessionStatus) -> StorageError {
    StorageError::SessionFinished {
        status: status.as_str(),
    }
}

impl SessionRow {
    pub(crate) fn into_domain(self) -> StorageResult<Session> {
        let corrupt = |what: &str, v: &str| StorageError::Corrupt(format!("session {what} `{v}`"));
        Ok(Session {
            id: parse_uuid(&self.id)?,
            tenant_id: TenantId(parse_uuid(&self.tenant_id)?),
            kind: SessionKind::parse(&self.kind).ok_or_else(|| corrupt("kind", &self.kind))?,
            mode: SessionMode::parse(&self.mode).ok_or_else(|| corrupt("mode", &self.mode))?,
            status: SessionStatus::parse(&self.status)
                .ok_or_else(|| corrupt("status", &self.status))?,
            reference_id: self.reference_id,
            redirect_url: self.redirect_url,
            webhook_url: self.webhook_url,
            fingerprint_id: self.fingerprint_id,
            challenge_count: self.challenge_count.max(0) as u32,
            attempt_number: self.attempt_number.max(0) as u32,
            max_attempts: self.max_attempts.max(0) as u32,
            allow_no_flash: self.allow_no_flash,
            verdict: match self.verdict.as_deref() {
                None => None,
                Some(name) => Some(Verdict::parse(name).ok_or_else(|| corrupt("verdict", name))?),
            },
            confidence: self.confidence.map(|c| c as f32),
            photo_quality_score: self.photo_quality_score.map(|q| q as f32),
            layers: self.layers,
            has_photo: self.photo.is_some(),
            has_reference: self.reference_embedding.is_some(),
            match_threshold: self.match_threshold.map(|t| t as f32),
            face_match: match self.face_match.as_deref() {
                None => None,
                Some(json) => {
                    Some(serde_json::from_str(json).map_err(|_| corrupt("face_match", json))?)
                }
            },
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
        let now = self.now_millis();
        let row = SessionRow {
            id: Uuid::new_v4().to_string(),
            tenant_id: new.tenant_id.0.to_string(),
            kind: new.kind.as_str().into(),
            mode: new.mode.as_str().into(),
            status: SessionStatus::Created.as_str().into(),
            token_digest: self.secret().digest(&token),
            reference_id: new.reference_id.clone(),
            redirect_url: new.redirect_url.clone(),
            webhook_url: new.webhook_url.clone(),
            fingerprint_id: new.fingerprint_id.clone(),
            challenge_count: new.challenge_count as i32,
            attempt_number: new.attempt_number as i32,
            max_attempts: new.max_attempts as i32,
            verdict: None,
            confidence: None,
            photo: None,
            photo_quality_score: None,
            created_at: now,
            expires_at: now + new.lifetime_ms,
            completed_at: None,
            layers: None,
            reference_embedding: new
                .reference_embedding
                .as_deref()
                .map(crate::embedding_to_blob),
            match_threshold: new.match_threshold.map(f64::from),
            face_match: None,
            draw_seed: Some(new.draw_seed.as_bytes().to_vec()),
            reference_face_model: new.reference_face_model.map(|m| m.as_str().to_owned()),
            allow_no_flash: new.allow_no_flash,
        };
        diesel::insert_into(sessions::table)
            .values(&row)
            .execute(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel(Entity::Session, e))?;
        Ok((row.into_domain()?, token))
    }

    fn session_row(&self, id: Uuid) -> StorageResult<SessionRow> {
        sessions::table
            .find(id.to_string())
            .first::<SessionRow>(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel(Entity::Session, e))
    }

    /// A session with the digest of its token, for the session service to authorise a
    /// browser's token against (`Store::token_matches`).
    pub fn session_and_token_digest(&self, id: Uuid) -> StorageResult<(Session, Vec<u8>)> {
        let mut row = self.session_row(id)?;
        let digest = std::mem::take(&mut row.token_digest);
        Ok((row.into_domain()?, digest))
    }

    /// Whether `token` is the one whose digest is `stored_digest` (an HMAC under the server
    /// secret, compared in constant time).
    pub fn token_matches(&self, token: &str, stored_digest: &[u8]) -> bool {
        self.secret().verify(token, stored_digest)
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
        .map_err(|e| StorageError::from_diesel(Entity::Session, e))?;
        self.session_row(id)?.into_domain()
    }

    /// A session by id, whatever its state (the session service authorises).
    pub fn session(&self, id: Uuid) -> StorageResult<Session> {
        self.session_row(id)?.into_domain()
    }

    /// The portrait JPEG of a session, if it still has one (callers authenticate first).
    pub fn session_photo_of(&self, id: Uuid) -> StorageResult<Option<Vec<u8>>> {
        Ok(self.session_row(id)?.photo)
    }

    /// A client starts streaming: `created` becomes `in_progress`; an `in_progress` session
    /// (a client reconnecting after a dropped socket) stays so. Anything else is refused with
    /// `SessionFinished`, so a finished session is single use. Returned with the seed its
    /// draws come from.
    pub fn begin_session(&self, id: Uuid) -> StorageResult<BegunSession> {
        // one compare-and-set: only a live, unfinished session moves (or stays) in progress
        let changed = diesel::update(
            sessions::table
                .find(id.to_string())
                .filter(sessions::status.eq_any([
                    SessionStatus::Created.as_str(),
                    SessionStatus::InProgress.as_str(),
                ]))
                .filter(sessions::expires_at.gt(self.now_millis())),
        )
        .set(sessions::status.eq(SessionStatus::InProgress.as_str()))
        .execute(&mut *self.conn()?)
        .map_err(|e| StorageError::from_diesel(Entity::Session, e))?;
        let mut row = self.session_row(id)?;
        let draw_seed = row.draw_seed.take();
        let session = row.into_domain()?;
        if changed == 1 {
            let draw_seed = draw_seed
                .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
                .map(SessionSeed::from_bytes)
                .ok_or_else(|| StorageError::Corrupt(format!("session {id} draw seed")))?;
            return Ok(BegunSession { session, draw_seed });
        }
        if session.is_expired_at(self.now_millis()) {
            return Err(StorageError::NotFound {
                entity: Entity::Session,
            });
        }
        Err(refused(session.status))
    }

    /// Records the outcome and queues its webhook in one transaction. The status moves to
    /// `completed` only from `created` or `in_progress` (compare-and-set): a second completion
    /// finds no row to change and gets `SessionFinished`, so at most one verdict and one
    /// delivery exist per session. The photo is kept only for a `pass`.
    pub fn complete_session(
        &self,
        id: Uuid,
        outcome: &SessionOutcome,
        webhook: Option<&crate::outbox::NewDelivery>,
    ) -> StorageResult<Session> {
        let (photo, quality) = match (outcome.verdict, &outcome.photo) {
            (Verdict::Pass, Some((jpeg, q))) => (Some(jpeg.clone()), Some(f64::from(*q))),
            _ => (None, None),
        };
        let face_match = outcome
            .face_match
            .map(|m| serde_json::to_string(&m))
            .transpose()
            .map_err(|e| StorageError::Corrupt(format!("face match: {e}")))?;
        let sealed_frames = self.seal_audit_frames(&outcome.audit_frames)?;
        let now = self.now_millis();
        let mut conn = self.conn()?;
        crate::connection::write_transaction(&mut conn, |c| -> Result<_, StorageError> {
            let (created_at, expires_at, tenant): (i64, i64, String) = sessions::table
                .find(id.to_string())
                .select((
                    sessions::created_at,
                    sessions::expires_at,
                    sessions::tenant_id,
                ))
                .first(c)
                .map_err(|e| StorageError::from_diesel(Entity::Session, e))?;
            // the result stays readable for at least one lifetime after the verdict
            let readable_until = expires_at.max(now + (expires_at - created_at));
            let changed = diesel::update(sessions::table.find(id.to_string()).filter(
                sessions::status.eq_any([
                    SessionStatus::Created.as_str(),
                    SessionStatus::InProgress.as_str(),
                ]),
            ))
            .set((
                sessions::status.eq(SessionStatus::Completed.as_str()),
                sessions::verdict.eq(Some(outcome.verdict.as_str())),
                sessions::confidence.eq(Some(f64::from(outcome.confidence))),
                sessions::layers.eq(Some(outcome.layers_json.as_str())),
                sessions::photo.eq(photo),
                sessions::photo_quality_score.eq(quality),
                sessions::completed_at.eq(Some(now)),
                sessions::expires_at.eq(readable_until),
                // the reference's purpose ends with the verdict
                sessions::reference_embedding.eq(None::<Vec<u8>>),
                // nothing is drawn for a finished session
                sessions::draw_seed.eq(None::<Vec<u8>>),
                sessions::face_match.eq(face_match.as_deref()),
            ))
            .execute(c)
            .map_err(|e| StorageError::from_diesel(Entity::Session, e))?;
            if changed == 0 {
                let status = sessions::table
                    .find(id.to_string())
                    .select(sessions::status)
                    .first::<String>(c)
                    .map_err(|e| StorageError::from_diesel(Entity::Session, e))?;
                let from = SessionStatus::parse(&status).unwrap_or(SessionStatus::Completed);
                return Err(refused(from));
            }
            crate::audit_frames::insert(c, id, &tenant, &sealed_frames, now)?;
            if let Some(webhook) = webhook {
                crate::outbox::insert_delivery(c, &tenant, id, webhook, now)?;
            }
            Ok(())
        })?;
        self.session(id)
    }

    /// Counts a direct-session attempt for `subject` (a digest of fingerprint and client
    /// address): returns the attempt number when fewer than `max` were made since
    /// `window_start`, or `None` when the maximum is reached (nothing is recorded then).
    pub fn record_session_attempt(
        &self,
        subject: &str,
        window_start: i64,
        max: u32,
    ) -> StorageResult<Option<u32>> {
        use crate::schema::session_attempts as sa;
        let mut conn = self.conn()?;
        crate::connection::write_transaction(&mut conn, |c| -> Result<_, StorageError> {
            // replicas counting the same subject at once take turns (SQLite writers are
            // serialised by the database itself)
            crate::dialect::serialise_subject(c, subject)
                .map_err(|e| StorageError::from_diesel(Entity::SessionAttempt, e))?;
            let made: i64 = sa::table
                .filter(sa::subject.eq(subject))
                .filter(sa::created_at.ge(window_start))
                .count()
                .get_result(c)
                .map_err(|e| StorageError::from_diesel(Entity::SessionAttempt, e))?;
            if made >= i64::from(max) {
                return Ok(None);
            }
            diesel::insert_into(sa::table)
                .values((
                    sa::id.eq(Uuid::now_v7().to_string()),
                    sa::subject.eq(subject),
                    sa::created_at.eq(self.now_millis()),
                ))
                .execute(c)
                .map_err(|e| StorageError::from_diesel(Entity::SessionAttempt, e))?;
            Ok(Some(made as u32 + 1))
        })
    }

    /// The reference face's embedding of a session created with one and the face model that
    /// made it (`fr_feature` for references stored before models were recorded), while it is
    /// held (until the session completes or expires).
    pub fn session_reference_embedding(
        &self,
        id: Uuid,
    ) -> StorageResult<Option<(FaceModel, Vec<f32>)>> {
        let row = self.session_row(id)?;
        let Some(blob) = row.reference_embedding.as_deref() else {
            return Ok(None);
        };
        let model = match row.reference_face_model.as_deref() {
            None => FaceModel::LEGACY,
            Some(name) => FaceModel::parse(name).ok_or_else(|| {
                StorageError::Corrupt(format!("session reference_face_model `{name}`"))
            })?,
        };
        Ok(Some((model, crate::embedding_from_blob(blob)?)))
    }
}
