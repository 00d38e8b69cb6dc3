-- The no-flash path (issue 67): whether a session's person may choose to verify without the
-- screen's colours, set at creation. Sessions made before this allowed it (the default).
ALTER TABLE sessions ADD COLUMN allow_no_flash BOOLEAN NOT NULL DEFAULT TRUE;
