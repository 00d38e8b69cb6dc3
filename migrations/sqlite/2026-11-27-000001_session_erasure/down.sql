DROP INDEX sessions_tenant_created;
DROP TABLE erased_sessions;
