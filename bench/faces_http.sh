#!/usr/bin/env bash
# Faces over HTTP beside face_recognition (dlib), and compare latency one at a time (issue 42).
# Builds the release binary, starts `facegate serve` on a temporary SQLite database, and runs
# bench/faces_http.py twice: the index phase with the server pinned to core 0 (dlib on the
# same core, the client on core 1), then the compare phase with the server on every core.
# `FACEGATE_BIN=path` serves another build (a before/after run); `DLIB=0` skips face_recognition
# (otherwise installed with pip when missing). Results: docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${DLIB:-1}" != 0 ] && ! python3 -c "import face_recognition" >/dev/null 2>&1; then
  # dlib-bin is a prebuilt dlib (building dlib itself takes cmake and many minutes);
  # face_recognition_models still imports pkg_resources, gone from setuptools 81
  pip install -q dlib-bin pillow numpy click "setuptools<81" face_recognition_models \
    && pip install -q --no-deps face_recognition \
    || { echo "face_recognition is needed (or DLIB=0): see bench/faces_http.sh" >&2; exit 1; }
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/facegate-target}"
cargo build -q --release -p facegate
cargo build -q --release -p facegate-face-engine --example one_megapixel
bin="${FACEGATE_BIN:-$CARGO_TARGET_DIR/release/facegate}"
work="$(mktemp -d)"
port="${PORT:-18091}"
server=""
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
export FACEGATE__DATABASE__URL="$work/facegate.db" FACEGATE__SERVER__BIND="127.0.0.1:$port"
export FACEGATE__RATE_LIMIT__PER_SECOND=0 FACEGATE__RATE_LIMIT__PER_MINUTE=0 RUST_LOG=warn
"$CARGO_TARGET_DIR"/release/examples/one_megapixel ../shared/testdata/identities/celebs/id00/img1.jpg "$work/a.jpg"
"$CARGO_TARGET_DIR"/release/examples/one_megapixel ../shared/testdata/identities/celebs/id00/img11.jpg "$work/b.jpg"
key="$("$bin" keys create --tenant bench 2>/dev/null | tail -1)"
export FACEGATE_URL="http://127.0.0.1:$port" FACEGATE_KEY="$key"
serve() {
  "$@" "$bin" serve > "$work/server.log" 2>&1 & server=$!
  until curl -sf "$FACEGATE_URL/readyz" >/dev/null; do sleep 0.2; done
}
serve taskset -c 0
MODE=index python3 bench/faces_http.py "$work/a.jpg" "$work/b.jpg"
kill "$server"; wait "$server" 2>/dev/null || true
serve env
MODE=compare python3 bench/faces_http.py "$work/a.jpg" "$work/b.jpg"
