#!/usr/bin/env bash
# The container image, built and checked with buildah (Debian's package; chroot isolation, so
# it runs inside this machine's sandbox; no registry is reached).
#
#   scripts/container.sh build [BINARY]   builds localhost/facegate:latest from the release
#                                         binary (built here), or from BINARY when given
#   scripts/container.sh smoke [BINARY]   builds it, then runs `facegate serve` inside it and
#                                         checks from outside: /healthz, a key made with
#                                         `facegate keys create` inside the image, one
#                                         faces:compare, and a restart that keeps the data. Any
#                                         failure exits non-zero.
#
# The test command (scripts/test.sh) passes the binary its test build made (the dev profile,
# the same code), so a run on an empty target dir does not build every dependency a second time
# in the release profile; what ships is `build` with no argument.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/facegate-target}"
export BUILDAH_ISOLATION=chroot
image=localhost/facegate:latest

need_buildah() {
  if ! command -v buildah >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq buildah >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq buildah >/dev/null 2>&1; } \
      || { echo "buildah could not be installed" >&2; exit 1; }
  fi
}

# Copies `path` into the root file system at the same place, following a symlink to its file.
copy_into() {
  local rootfs=$1 path=$2
  mkdir -p "$rootfs$(dirname "$path")"
  cp -L "$path" "$rootfs$path"
}

build() {
  need_buildah
  local binary="${1:-}"
  if [ -z "$binary" ]; then
    cargo build --release -p facegate --quiet
    binary="$CARGO_TARGET_DIR/release/facegate"
  fi
  [ -x "$binary" ] || { echo "no facegate binary at $binary" >&2; exit 1; }
  local context
  context="$(mktemp -d)"
  local rootfs="$context/rootfs"
  mkdir -p "$rootfs/usr/local/bin" "$rootfs/etc/ssl/certs" "$rootfs/tmp" "$context/data"
  install -m 0755 "$binary" "$rootfs/usr/local/bin/facegate"
  # the shared libraries the binary links, and the loader, at the paths it looks for them
  ldd "$binary" | awk '/=> \//{print $3} /^\s*\/lib/{print $1}' | sort -u | while read -r lib; do
    copy_into "$rootfs" "$lib"
  done
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nfacegate:x:10001:10001:facegate:/data:/sbin/nologin\n' > "$rootfs/etc/passwd"
  printf 'root:x:0:\nfacegate:x:10001:\n' > "$rootfs/etc/group"
  printf 'hosts: files dns\n' > "$rootfs/etc/nsswitch.conf"
  chmod 0700 "$context/data"
  chmod 1777 "$rootfs/tmp"
  cp deploy/container/Containerfile "$context/Containerfile"
  buildah build --quiet --layers=false -f "$context/Containerfile" -t "$image" "$context" >/dev/null \
    || { rm -rf "$context"; echo "buildah build failed" >&2; exit 1; }
  echo "built $image ($(du -sh --apparent-size "$rootfs" | cut -f1) root file system)"
  rm -rf "$context"
  buildah rmi --prune >/dev/null 2>&1 || true   # the images this tag replaced
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits for `url` to answer 200, up to `seconds`.
wait_ok() {
  local url=$1 seconds=$2
  for _ in $(seq 1 $((seconds * 5))); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$url" || true)" = 200 ] && return 0
    sleep 0.2
  done
  echo "smoke: $url did not answer 200 within ${seconds}s" >&2
  return 1
}

smoke() {
  build "${1:-}"
  local port log
  port=$(free_port)
  container=$(buildah from --quiet "$image")
  log="$(mktemp)"
  cleanup() {
    if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; fi
    if [ -n "${container:-}" ]; then buildah rm "$container" >/dev/null 2>&1 || true; fi
  }
  trap cleanup EXIT
  local run=(buildah run --isolation chroot --network host --env "FACEGATE__SERVER__BIND=127.0.0.1:$port" "$container" --)
  local base="http://127.0.0.1:$port"

  "${run[@]}" facegate serve >"$log" 2>&1 &
  server=$!
  wait_ok "$base/healthz" 120 || { cat "$log" >&2; exit 1; }
  local key
  key=$("${run[@]}" facegate keys create --tenant smoke 2>/dev/null | tail -1)
  [ -n "$key" ] || { echo "smoke: no key" >&2; exit 1; }
  local photos=../shared/testdata/identities/celebs/id00
  local compare
  compare=$(curl -s -H "Authorization: Bearer $key" \
    -F "source_image=@$photos/img1.jpg" -F "target_image=@$photos/img2.jpg" "$base/api/v2/faces:compare")
  echo "$compare" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["is_match"] is True and r["similarity"] > 0.5, r' \
    || { echo "smoke: compare answered $compare" >&2; exit 1; }
  curl -s -X POST -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
    -d '{"external_id": "kept"}' "$base/api/v2/collections" >/dev/null

  # restart: the key and the collection live in /data and survive it
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  "${run[@]}" facegate serve >"$log" 2>&1 &
  server=$!
  wait_ok "$base/healthz" 120 || { cat "$log" >&2; exit 1; }
  local kept
  kept=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" "$base/api/v2/collections/kept")
  [ "$kept" = 200 ] || { echo "smoke: after a restart the collection answered $kept" >&2; exit 1; }
  local user
  user=$(buildah inspect --type container --format '{{.OCIv1.Config.User}}' "$container")
  [ "$user" = "10001:10001" ] || { echo "smoke: the image runs as '$user'" >&2; exit 1; }
  echo "smoke: /healthz, keys create, faces:compare and a restart keeping /data all passed"
}

case "${1:-}" in
  build) build "${2:-}" ;;
  smoke) smoke "${2:-}" ;;
  *) echo "usage: $0 build|smoke [BINARY]" >&2; exit 2 ;;
esac
