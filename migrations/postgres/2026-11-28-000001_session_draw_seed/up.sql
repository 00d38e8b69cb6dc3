-- A session's one source of randomness (issue 40): 32 bytes drawn at creation, from which its
-- challenge count, challenges and light sequence are drawn; cleared when the session completes.
-- Sessions open when this runs get a seed of their own (two random UUIDs' 32 bytes).
ALTER TABLE sessions ADD COLUMN draw_seed BYTEA;
UPDATE sessions
SET draw_seed = decode(
    replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
    'hex')
WHERE status IN ('created', 'in_progress');
