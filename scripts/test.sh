#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what the tests need (PostgreSQL's pgvector,
# ffmpeg, openssl, promtool, HAProxy, Chromium and the browser driver's npm packages), then runs
# `cargo test --workspace`. `.ci/run` calls exactly this after fmt and clippy.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/facegate-target}"

if [ ! -d ../shared/testdata ]; then
  echo "../shared/testdata is missing: the tests read real photos from it" >&2
  exit 1
fi

# Under CI=true nothing may skip in silence: a missing PostgreSQL, pgvector or ffmpeg fails the
# run here, and the tests themselves refuse to skip their PostgreSQL halves (see
# crates/storage/tests/it/common). Outside CI they skip and say so.
in_ci=false
case "${CI:-}" in true|1) in_ci=true ;; esac
missing() {
  if $in_ci; then echo "CI: $1" >&2; exit 1; fi
  echo "warning: $1 (outside CI the dependent tests skip and say so)" >&2
}

# PostgreSQL half of the storage tests: this machine kind runs PostgreSQL 15 on 127.0.0.1:5432
# with trust auth. Start it if it is stopped.
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  cluster="$(ls /etc/postgresql 2>/dev/null | head -1)"
  if [ -n "$cluster" ]; then
    pg_ctlcluster --skip-systemctl-redirect "$cluster" main start 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
fi
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  # pgvector (HNSW search) from Debian trixie's source package.
  bash scripts/install-pgvector.sh || missing "pgvector could not be installed"
  export FACEGATE_TEST_DATABASE_URL="${FACEGATE_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
  echo "PostgreSQL tests enabled: $FACEGATE_TEST_DATABASE_URL"
else
  missing "PostgreSQL is not reachable on 127.0.0.1:5432"
fi

# The liveness tests replay the shared videos frame by frame: ffmpeg extracts the frames.
if ! command -v ffmpeg >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq ffmpeg >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq ffmpeg >/dev/null 2>&1; } \
    || missing "ffmpeg could not be installed: the liveness video tests need it"
fi

# The webhook tests make a throw-away certificate authority with openssl.
if ! command -v openssl >/dev/null 2>&1; then
  apt-get install -y -qq openssl >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq openssl >/dev/null 2>&1; } \
    || missing "openssl could not be installed: the webhook tests need it"
fi

# The alert-rule tests run promtool (Debian's prometheus package ships it).
if ! command -v promtool >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq prometheus >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq prometheus >/dev/null 2>&1; } \
    || missing "promtool could not be installed: the alert-rule tests need it"
fi

# The scale-out tests run three replicas behind HAProxy (scripts/cluster.sh).
if ! command -v haproxy >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq haproxy >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq haproxy >/dev/null 2>&1; } \
    || missing "HAProxy could not be installed: the scale-out tests need it"
fi

# The API conformance test holds the server to its OpenAPI document with schemathesis (PyPI),
# pinned here.
if ! st --version 2>/dev/null | grep -q "4.32.5"; then
  python3 -m pip install --quiet --disable-pip-version-check "schemathesis==4.32.5" >/dev/null 2>&1 \
    || missing "schemathesis could not be installed: the API conformance test needs it"
fi

# The web-UI tests drive Debian's Chromium with playwright-core (tests/browser, pinned by its
# package-lock.json) and axe-core.
if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq chromium fonts-dejavu-core >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium fonts-dejavu-core >/dev/null 2>&1; } \
    || missing "Chromium could not be installed: the web-UI tests need it"
fi
if command -v npm >/dev/null 2>&1; then
  (cd tests/browser && npm ci --no-audit --no-fund --silent) || missing "npm ci in tests/browser failed"
else
  missing "node/npm are missing: the web-UI tests need them"
fi

# The typed clients (clients/, tests/tests/it/clients.rs): the TypeScript package's npm
# dependencies (pinned by its package-lock.json), and the Python generator, the generated
# client's dependencies and the Standard Webhooks reference library from PyPI, pinned here.
if command -v npm >/dev/null 2>&1; then
  (cd clients/typescript && npm ci --no-audit --no-fund --silent) || missing "npm ci in clients/typescript failed"
fi
if ! openapi-python-client --version 2>/dev/null | grep -q "0.29.1"; then
  python3 -m pip install --quiet --disable-pip-version-check "openapi-python-client==0.29.1" >/dev/null 2>&1 \
    || missing "openapi-python-client could not be installed: the clients test needs it"
fi
python3 -m pip install --quiet --disable-pip-version-check "standardwebhooks==1.1.0" "httpx>=0.23,<0.29" \
  "attrs>=22.2" "python-dateutil>=2.8" "setuptools>=68" "wheel" >/dev/null 2>&1 \
  || missing "the Python client's dependencies could not be installed"

# The Kubernetes manifests (deploy/kubernetes) against a current Kubernetes schema.
echo "== kubernetes manifests"
bash scripts/validate-manifests.sh

# Every test executable and the server binary the black-box tests start, built once (the dev
# profile; its dependencies at opt-level 3). The same arguments as the run below, so the run
# finds exactly what it needs already built.
echo "== cargo test --workspace --no-run"
cargo test --workspace --no-run "$@"
cargo build -p facegate --quiet

# The container image (buildah, chroot isolation): built from the binary just built (the image's
# recipe, its libraries and start-up are what is checked; `scripts/container.sh build` ships the
# release profile of the same code), started, and checked from outside. An image that does not
# build or start fails the run.
echo "== container image"
bash scripts/container.sh smoke "$CARGO_TARGET_DIR/debug/facegate"

echo "== cargo test --workspace"
cargo test --workspace "$@"
