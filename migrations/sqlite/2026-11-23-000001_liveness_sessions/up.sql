-- Liveness sessions over the network: per-layer scores kept for API-key reads, the webhook
-- outbox made exactly-once (one delivery per session, leased claims, an attempt log), tenant
-- webhook signing secrets (sealed under the server secret) and direct-session attempt counting.
ALTER TABLE sessions ADD COLUMN layers TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN lease_token TEXT;
CREATE UNIQUE INDEX webhook_deliveries_session ON webhook_deliveries(session_id);

CREATE TABLE webhook_attempts (
    id TEXT PRIMARY KEY NOT NULL,
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    started_at BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL,
    status_code INTEGER,
    outcome TEXT NOT NULL,
    error TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, attempt);

CREATE TABLE webhook_secrets (
    id TEXT PRIMARY KEY NOT NULL,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    sealed BLOB NOT NULL,
    created_at BIGINT NOT NULL,
    retires_at BIGINT
);
CREATE INDEX webhook_secrets_tenant ON webhook_secrets(tenant_id, created_at);

CREATE TABLE session_attempts (
    id TEXT PRIMARY KEY NOT NULL,
    subject TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX session_attempts_subject ON session_attempts(subject, created_at);
