#!/usr/bin/env bash
# pgvector HNSW search latency against collection size, for the capacity model in
# docs/operations.md: random 512-d unit vectors (the embedder's dimension) in a throw-away
# database, the index Facegate's migration builds (HNSW, m = 16, ef_construction = 128, inner
# product), then top-10 queries at ef_search = 100 timed inside PostgreSQL.
#   bench/pgvector_scale.sh [SIZES…]   (default: 10000 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-pgvector.sh >/dev/null
admin="${FACEGATE_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
db="facegate_pgvector_bench_$$"
psql "$admin" -qc "CREATE DATABASE $db"
trap 'psql "$admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
url="${admin%/*}/$db"
psql "$url" -q <<'SQL'
CREATE EXTENSION vector;
CREATE FUNCTION random_unit(dim int) RETURNS vector LANGUAGE sql VOLATILE AS $$
  WITH v AS (SELECT array_agg(random() - 0.5) AS a FROM generate_series(1, dim))
  SELECT l2_normalize(a::vector) FROM v $$;
CREATE TABLE faces (id bigserial PRIMARY KEY, embedding vector(512) NOT NULL);
SQL
have=0
for size in "${@:-10000 100000}"; do
  for n in $size; do
    start=$(date +%s.%N)
    psql "$url" -qc "DROP INDEX IF EXISTS faces_hnsw; INSERT INTO faces (embedding) SELECT random_unit(512) FROM generate_series(1, $((n - have)));"
    have=$n
    psql "$url" -qc "SET maintenance_work_mem = '1GB'; CREATE INDEX faces_hnsw ON faces USING hnsw (embedding vector_ip_ops) WITH (m = 16, ef_construction = 128);"
    built=$(echo "$(date +%s.%N) - $start" | bc)
    psql "$url" -qAt <<SQL | tail -1 | sed "s/^/$n faces: load and index ${built%.*} s; /"
SET hnsw.ef_search = 100;
CREATE TEMP TABLE queries AS SELECT random_unit(512) AS q FROM generate_series(1, 200);
DO \$\$
DECLARE r record; t0 timestamptz; times float8[] := '{}';
BEGIN
  FOR r IN SELECT q FROM queries LOOP
    t0 := clock_timestamp();
    PERFORM id FROM faces ORDER BY embedding <#> r.q LIMIT 10;
    times := times || extract(epoch FROM clock_timestamp() - t0) * 1000;
  END LOOP;
  CREATE TEMP TABLE timings AS SELECT unnest(times) AS ms;
END \$\$;
SELECT format('search top-10 p50 %s ms, p99 %s ms, index %s MB',
  round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2),
  round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 2),
  pg_relation_size('faces_hnsw') / 1048576) FROM timings;
SQL
  done
done
