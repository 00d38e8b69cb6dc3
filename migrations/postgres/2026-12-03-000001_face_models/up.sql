-- A face model per collection (issue 68): the embedder its faces are indexed and searched
-- with, fixed at creation. Collections made before this read as `fr_feature`, the only model
-- there was. A liveness-with-verify reference records the model that embedded it (NULL for
-- references stored before: `fr_feature`).
ALTER TABLE collections ADD COLUMN face_model TEXT NOT NULL DEFAULT 'fr_feature';
ALTER TABLE sessions ADD COLUMN reference_face_model TEXT;
