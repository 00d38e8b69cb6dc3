ALTER TABLE sessions DROP COLUMN face_match;
ALTER TABLE sessions DROP COLUMN match_threshold;
ALTER TABLE sessions DROP COLUMN reference_embedding;
