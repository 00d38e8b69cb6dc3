ALTER TABLE sessions DROP COLUMN reference_face_model;
ALTER TABLE collections DROP COLUMN face_model;
