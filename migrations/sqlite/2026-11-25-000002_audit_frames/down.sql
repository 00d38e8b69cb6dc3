DROP TABLE session_audit_frames;
