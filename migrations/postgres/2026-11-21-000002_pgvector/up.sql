-- pgvector is optional: when the extension is available, faces get a 512-d vector column with
-- an HNSW index (inner product on unit vectors = cosine); otherwise search stays exact in memory.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    CREATE EXTENSION IF NOT EXISTS vector;
    ALTER TABLE faces ADD COLUMN IF NOT EXISTS embedding_vector vector(512);
    CREATE INDEX IF NOT EXISTS faces_embedding_hnsw ON faces USING hnsw (embedding_vector vector_ip_ops)
      WITH (m = 16, ef_construction = 128);
  END IF;
END $$;
