DROP TABLE webhook_deliveries;
DROP TABLE sessions;
DROP TABLE faces;
DROP TABLE collections;
DROP TABLE api_keys;
DROP TABLE tenants;
