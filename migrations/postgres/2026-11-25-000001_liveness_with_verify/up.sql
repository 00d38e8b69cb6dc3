-- Liveness with verify (issue 31): the reference face's embedding, kept only until the session
-- completes or expires, the session's match threshold, and the match of the portrait with it.
ALTER TABLE sessions ADD COLUMN reference_embedding BYTEA;
ALTER TABLE sessions ADD COLUMN match_threshold DOUBLE PRECISION;
ALTER TABLE sessions ADD COLUMN face_match TEXT;
