-- A session's one source of randomness (issue 40): 32 bytes drawn at creation, from which its
-- challenge count, challenges and light sequence are drawn; cleared when the session completes.
-- Sessions open when this runs get a seed of their own.
ALTER TABLE sessions ADD COLUMN draw_seed BLOB;
UPDATE sessions SET draw_seed = randomblob(32) WHERE status IN ('created', 'in_progress');
