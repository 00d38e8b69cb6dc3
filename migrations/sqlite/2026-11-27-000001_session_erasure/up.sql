-- Session erasure (issue 41): a session erased on request leaves only this tombstone (its id,
-- tenant and when), so that erasing it again answers as the first time did. It holds nothing
-- about the person: the session row, its portrait, reference embedding, audit frames and
-- webhook deliveries are deleted.
CREATE TABLE erased_sessions (
    session_id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    erased_at BIGINT NOT NULL
);
-- The session list (newest first, per tenant, keyset-paged).
CREATE INDEX sessions_tenant_created ON sessions(tenant_id, created_at DESC, id DESC);
