#!/usr/bin/env bash
# HTTP load test against the release binary on loopback (wrk from Debian's packages).
# Seeds a 100k-face collection, starts the server, runs search and compare at 2, 8 and 32
# connections for a bounded time each, then stops the server. Results: docs/benchmarks.md.
# `ONLY=compare bench/load.sh` skips the search half (and its 100k seed); the compare half
# also runs at 1 connection, the figure issue 16 sets a goal for (p50 of one compare).
# `SERVER_CORES=0` pins the server to those cores (taskset) and wrk to `WRK_CORES` (default 1):
# the "one core" figure. `FACEGATE_BIN=path` serves another build (a before/after run).
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
port=18090
if ! command -v wrk >/dev/null 2>&1; then
  apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y wrk >/dev/null 2>&1; } \
    || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
fi
target="${CARGO_TARGET_DIR:-target}"
cargo build -q --release -p facegate
cargo build -q --release -p facegate-storage --example seed
cargo build -q --release -p facegate-face-engine --example one_megapixel
bin="${FACEGATE_BIN:-$target/release/facegate}"
server_pin=(); wrk_pin=()
if [ -n "${SERVER_CORES:-}" ]; then
  server_pin=(taskset -c "$SERVER_CORES"); wrk_pin=(taskset -c "${WRK_CORES:-1}")
fi
export FACEGATE__DATABASE__URL="$work/db.sqlite"
face=""
if [ "${ONLY:-}" != compare ]; then
  face="$("$target"/release/examples/seed "$FACEGATE__DATABASE__URL" loadtest people 100000)"
else
  "$bin" migrate >/dev/null 2>&1 || true
fi
key="$("$bin" keys create --tenant loadtest 2>/dev/null | tail -1)"
"$target"/release/examples/one_megapixel ../shared/testdata/identities/celebs/id00/img1.jpg "$work/a.jpg"
"$target"/release/examples/one_megapixel ../shared/testdata/identities/celebs/id00/img11.jpg "$work/b.jpg"
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]; b = 'XYZBOUNDARY'; parts = []
for name in ('source_image', 'target_image'):
    data = open(f"{work}/{'a' if name == 'source_image' else 'b'}.jpg", 'rb').read()
    parts.append(f'--{b}\r\nContent-Disposition: form-data; name="{name}"; filename="{name}.jpg"\r\n\r\n'.encode() + data + b'\r\n')
open(f'{work}/compare.body', 'wb').write(b''.join(parts) + f'--{b}--\r\n'.encode())
PY
cat > "$work/search.lua" <<LUA
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer $key"
LUA
cat > "$work/compare.lua" <<LUA
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer $key"
wrk.headers["Content-Type"] = "multipart/form-data; boundary=XYZBOUNDARY"
local f = io.open("$work/compare.body", "rb")
wrk.body = f:read("*a")
f:close()
LUA
FACEGATE__SERVER__BIND="127.0.0.1:$port" FACEGATE__RATE_LIMIT__PER_SECOND=0 FACEGATE__RATE_LIMIT__PER_MINUTE=0 \
  RUST_LOG=warn "${server_pin[@]}" "$bin" serve > "$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 1; done
for c in 2 8 32; do
  [ "${ONLY:-}" = compare ] && break
  echo "== search-by-face, 100k faces, $c connections"
  "${wrk_pin[@]}" wrk -t2 -c"$c" -d10s --latency -s "$work/search.lua" \
    "http://127.0.0.1:$port/api/v2/collections/people/search-by-face/$face?max_faces=10" | grep -E "Requests/sec|50%|99%|Non-2xx"
done
for c in 1 2 8 32; do
  echo "== faces:compare, two ~1 MP JPEGs, $c connections"
  "${wrk_pin[@]}" wrk -t"$(( c < 2 ? 1 : 2 ))" -c"$c" -d15s --timeout 10s --latency -s "$work/compare.lua" "http://127.0.0.1:$port/api/v2/faces:compare" | grep -E "Requests/sec|50%|99%|Non-2xx"
done
