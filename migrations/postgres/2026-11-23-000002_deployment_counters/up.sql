-- Scale-out: request counters shared by every replica (per-key rate limits and the failed
-- credential lock-out) and deployment facts every replica must agree on (the server secret's
-- check value).
CREATE TABLE request_counters (
    name TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    hits BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (name, window_start)
);
CREATE INDEX request_counters_expiry ON request_counters(expires_at);

CREATE TABLE deployment_facts (
    name TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Which connection streams a session, leased and renewed while frames arrive, so one socket
-- per session holds across replicas; a replica killed mid-stream lets its lease run out.
CREATE TABLE session_streams (
    session_id TEXT PRIMARY KEY NOT NULL,
    holder TEXT NOT NULL,
    lease_until BIGINT NOT NULL
);
