DROP INDEX IF EXISTS faces_embedding_128_hnsw;
ALTER TABLE faces DROP COLUMN IF EXISTS embedding_vector_128;
