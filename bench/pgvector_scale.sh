#!/usr/bin/env bash
# pgvector HNSW at scale, for the capacity model in docs/operations.md and issue 68's "a million
# faces, measured": random unit vectors of a face model's width (512 for fr_feature, 128 for
# SFace) in a throw-away database, the index Facegate's migrations build (HNSW, m = 16,
# ef_construction = 128, inner product), then top-10 queries at ef_search = 100 with the
# iterative scan the server sets, timed inside PostgreSQL. Reports load and index throughput,
# search p50/p99, the index's size, and recall@10 against exact search (a sequential scan) for
# probes of enrolled faces (a stored vector moved to cosine about 0.7, as a second photo of the
# same person scores) and for strangers (fresh random vectors).
#   DIM=128 EF="100 400" bench/pgvector_scale.sh [SIZES…]
# (default DIM 512, EF 100 as `pgvector::EF_SEARCH`, sizes 10000 100000; each size's index is
# built once and measured at every `ef_search` in EF)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-pgvector.sh >/dev/null
dim="${DIM:-512}"
efs="${EF:-100}"
admin="${FACEGATE_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
db="facegate_pgvector_bench_$$"
psql "$admin" -qc "CREATE DATABASE $db"
trap 'psql "$admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
url="${admin%/*}/$db"
psql "$url" -q <<SQL
CREATE EXTENSION vector;
CREATE FUNCTION random_unit(dim int) RETURNS vector LANGUAGE sql VOLATILE AS \$\$
  WITH v AS (SELECT array_agg(random() - 0.5) AS a FROM generate_series(1, dim))
  SELECT l2_normalize(a::vector) FROM v \$\$;
CREATE TABLE faces (id bigserial PRIMARY KEY, embedding vector($dim) NOT NULL);
SQL
have=0
for n in ${@:-10000 100000}; do
  start=$(date +%s.%N)
  psql "$url" -qc "DROP INDEX IF EXISTS faces_hnsw; INSERT INTO faces (embedding) SELECT random_unit($dim) FROM generate_series(1, $((n - have)));"
  loaded=$(date +%s.%N)
  psql "$url" -qc "SET maintenance_work_mem = '6GB'; SET max_parallel_maintenance_workers = 2; CREATE INDEX faces_hnsw ON faces USING hnsw (embedding vector_ip_ops) WITH (m = 16, ef_construction = 128);"
  built=$(date +%s.%N)
  load_rate=$(echo "($n - $have) / ($loaded - $start)" | bc)
  index_rate=$(echo "$n / ($built - $loaded)" | bc)
  have=$n
  for ef in $efs; do
  psql "$url" -qAt <<SQL | tail -1 | sed "s/^/${dim}-d, $n faces, ef_search $ef: load $load_rate faces\/s, HNSW build $index_rate faces\/s; /"
SET hnsw.ef_search = $ef;
SET hnsw.iterative_scan = strict_order;
CREATE TEMP TABLE strangers AS SELECT random_unit($dim) AS q FROM generate_series(1, 100);
CREATE TEMP TABLE probes AS
  SELECT f.id AS mate, l2_normalize(f.embedding + random_unit($dim)) AS q
  FROM faces f WHERE f.id IN (SELECT (1 + (g * 7919) % $n) FROM generate_series(1, 100) g);
DO \$\$
DECLARE r record; t0 timestamptz; times float8[] := '{}';
BEGIN
  FOR r IN SELECT q FROM probes UNION ALL SELECT q FROM strangers LOOP
    t0 := clock_timestamp();
    PERFORM id FROM faces ORDER BY embedding <#> r.q LIMIT 10;
    times := times || extract(epoch FROM clock_timestamp() - t0) * 1000;
  END LOOP;
  CREATE TEMP TABLE timings AS SELECT unnest(times) AS ms;
END \$\$;
CREATE FUNCTION pg_temp.recall(kind text) RETURNS numeric LANGUAGE plpgsql AS \$\$
DECLARE r record; found int := 0; total int := 0; approx bigint[]; exact bigint[];
BEGIN
  FOR r IN EXECUTE format('SELECT q FROM %I LIMIT 30', kind) LOOP
    SET LOCAL enable_indexscan = on;
    -- dynamic SQL, so each query is planned under the setting in force
    EXECUTE 'SELECT array_agg(id) FROM (SELECT id FROM faces ORDER BY embedding <#> \$1 LIMIT 10) a' INTO approx USING r.q;
    SET LOCAL enable_indexscan = off;
    EXECUTE 'SELECT array_agg(id) FROM (SELECT id FROM faces ORDER BY embedding <#> \$1 LIMIT 10) e' INTO exact USING r.q;
    found := found + (SELECT count(*) FROM unnest(approx) x WHERE x = ANY(exact));
    total := total + 10;
  END LOOP;
  RETURN round(found::numeric / total, 4);
END \$\$;
CREATE FUNCTION pg_temp.mates_first() RETURNS numeric LANGUAGE plpgsql AS \$\$
DECLARE r record; first bigint; found int := 0;
BEGIN
  FOR r IN SELECT mate, q FROM probes LOOP
    EXECUTE 'SELECT id FROM faces ORDER BY embedding <#> \$1 LIMIT 1' INTO first USING r.q;
    IF first = r.mate THEN found := found + 1; END IF;
  END LOOP;
  RETURN round(found::numeric / (SELECT count(*) FROM probes), 4);
END \$\$;
SELECT format('search top-10 p50 %s ms, p99 %s ms, index %s MB, mate at rank 1 for %s of enrolled probes, recall@10 %s for enrolled probes, %s for strangers (30 each)',
  round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2),
  round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 2),
  pg_relation_size('faces_hnsw') / 1048576,
  pg_temp.mates_first(), pg_temp.recall('probes'), pg_temp.recall('strangers')) FROM timings;
SQL
  done
done
