#!/usr/bin/env bash
# Regenerates everything the OpenAPI document generates, so no client code is kept by hand:
#   openapi.json                         `facegate openapi` (the document /api/openapi.json serves)
#   typescript/src/schema.ts             openapi-typescript (pinned in typescript/package.json)
#   python/src/facegate_client/          openapi-python-client 0.29.1 (python/generator.yaml)
#
#   clients/generate.sh            regenerate in place
#   clients/generate.sh --check    regenerate into a scratch copy and fail on any difference
# FACEGATE_BINARY names the facegate binary (default: the debug build in CARGO_TARGET_DIR).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
target="${CARGO_TARGET_DIR:-/var/tmp/facegate-target}"
binary="${FACEGATE_BINARY:-$target/debug/facegate}"
check=false
[ "${1:-}" = "--check" ] && check=true

out="$here"
if $check; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
  mkdir -p "$out/typescript/src" "$out/python/src"
fi
(cd "$(mktemp -d)" && "$binary" openapi) > "$out/openapi.json"
(cd "$here/typescript" && npx --no-install openapi-typescript "$out/openapi.json" --output "$out/typescript/src/schema.ts" >/dev/null)
rm -rf "$out/python/src/facegate_client"
openapi-python-client generate --path "$out/openapi.json" --meta none \
  --config "$here/python/generator.yaml" --output-path "$out/python/src/facegate_client" >/dev/null 2>&1
touch "$out/python/src/facegate_client/py.typed"

if $check; then
  diff -u "$here/openapi.json" "$out/openapi.json"
  diff -u "$here/typescript/src/schema.ts" "$out/typescript/src/schema.ts"
  diff -ru -x __pycache__ "$here/python/src/facegate_client" "$out/python/src/facegate_client"
  echo "clients: generated code matches the OpenAPI document"
fi
