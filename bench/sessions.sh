#!/usr/bin/env bash
# Session capacity: starts `facegate serve` on a temporary SQLite database, creates a
# key, and runs N concurrent passive sessions over WebSockets at 15 fps for each N given
# (default 1 4 8 16 32). Results go to docs/benchmarks.md by hand, with the machine.
# `FACEGATE_BIN=path` serves another build of the binary (a before/after run);
# `FACEGATE_LOAD_STAMPS=0` sends frames without their capture time (timed by arrival).
# `FACEGATE_LOAD_CACHE=folder` keeps the load generator's rendered footage between runs.
# `FACEGATE_LOAD_SPREAD_S=seconds` starts the sessions evenly over that time, not all at once.
set -euo pipefail
[ $# -gt 0 ] || set -- 1 4 8 16 32
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/facegate-target}"
# PROFILE=release for a release build; the default dev profile compiles every dependency and
# the engines at opt-level 3 (Cargo.toml), so it runs the same hot code and reuses CI's cache.
profile="${PROFILE:-dev}"
dir="$([ "$profile" = dev ] && echo debug || echo "$profile")"
cargo build --profile "$profile" -q -p facegate
cargo build --profile "$profile" -q -p facegate-blackbox-tests --example session_load
bin="${FACEGATE_BIN:-$CARGO_TARGET_DIR/$dir/facegate}"
data="$(mktemp -d)"
port="${PORT:-18089}"
# FACEGATE_BENCH_LOG=path keeps the server's log there
trap 'kill "$server" 2>/dev/null || true; [ -z "${FACEGATE_BENCH_LOG:-}" ] || cp "$data/server.log" "$FACEGATE_BENCH_LOG"; rm -rf "$data"' EXIT
export FACEGATE__DATABASE__URL="$data/facegate.db" FACEGATE__SERVER__BIND="127.0.0.1:$port"
export FACEGATE__RATE_LIMIT__PER_SECOND=0 FACEGATE__RATE_LIMIT__PER_MINUTE=0
key="$("$bin" keys create --tenant bench 2>/dev/null | tail -1)"
"$bin" serve 2>"$data/server.log" & server=$!
until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do sleep 0.2; done
FACEGATE_URL="http://127.0.0.1:$port" FACEGATE_KEY="$key" \
  "$CARGO_TARGET_DIR/$dir/examples/session_load" "$@"
