#!/usr/bin/env bash
# Mixed load (index, search, compare, session creation, live WebSocket sessions at 15 fps)
# through HAProxy for 1 and then 3 replicas on one PostgreSQL (scripts/cluster.sh), SECONDS
# each (default 60) with LIVE live sessions at once (default 2). Prints one Markdown table per
# topology; docs/operations.md carries the measured figures.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
live="${2:-2}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/facegate-target}"
cargo build -q --workspace --bins
export FACEGATE_BIN="$CARGO_TARGET_DIR/debug/facegate"
# the per-key limits are counted (shared counters in PostgreSQL) but set out of reach
export FACEGATE__RATE_LIMIT__PER_SECOND=100000 FACEGATE__RATE_LIMIT__PER_MINUTE=10000000
for replicas in 1 3; do
  dir="$(mktemp -d)"
  trap 'bash scripts/cluster.sh down "$dir"' EXIT
  bash scripts/cluster.sh up "$dir" "$replicas"
  . "$dir/cluster.env"
  key="$(FACEGATE__DATABASE__URL="$DATABASE_URL" FACEGATE__SECURITY__SERVER_SECRET="$(cat "$dir/server_secret")" \
    "$FACEGATE_BIN" keys create --tenant load 2>/dev/null | tail -1)"
  echo "## $replicas replica(s), $seconds s, $live live sessions ($(nproc) cores)"
  "$CARGO_TARGET_DIR/debug/mixed_load" "$LB_URL" "$key" "$seconds" "$live"
  if [ "$replicas" = 1 ]; then
    echo "### the cost of the hops (sequential requests, idle topology)"
    "$CARGO_TARGET_DIR/debug/mixed_load" hops "http://127.0.0.1:$REPLICA_1_PORT" "$LB_URL" "$key"
    echo "### CPU per operation (each alone, sequential, through HAProxy)"
    "$CARGO_TARGET_DIR/debug/mixed_load" costs "$LB_URL" "$key"
  fi
  bash scripts/cluster.sh down "$dir"
  trap - EXIT
done
