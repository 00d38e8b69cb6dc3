DROP INDEX IF EXISTS faces_embedding_hnsw;
ALTER TABLE faces DROP COLUMN IF EXISTS embedding_vector;
