-- SFace collections (issue 68) searched through pgvector too: a 128-d vector column beside the
-- 512-d one, with its own HNSW index (inner product on unit vectors = cosine). Like the first,
-- only where the extension is available; otherwise search stays exact in memory.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    CREATE EXTENSION IF NOT EXISTS vector;
    ALTER TABLE faces ADD COLUMN IF NOT EXISTS embedding_vector_128 vector(128);
    CREATE INDEX IF NOT EXISTS faces_embedding_128_hnsw ON faces
      USING hnsw (embedding_vector_128 vector_ip_ops) WITH (m = 16, ef_construction = 128);
  END IF;
END $$;
