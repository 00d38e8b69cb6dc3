-- Opt-in audit frames (issue 31, `sessions.audit_frames`): up to 4 frames of a completed
-- session, sealed under the server secret, deleted by the retention sweep with the session.
CREATE TABLE session_audit_frames (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    tenant_id TEXT NOT NULL,
    sealed BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (session_id, position)
);
