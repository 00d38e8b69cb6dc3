DROP TABLE session_attempts;
DROP TABLE webhook_secrets;
DROP TABLE webhook_attempts;
DROP INDEX webhook_deliveries_session;
ALTER TABLE webhook_deliveries DROP COLUMN lease_token;
ALTER TABLE sessions DROP COLUMN layers;
