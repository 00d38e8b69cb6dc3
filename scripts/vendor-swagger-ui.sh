#!/usr/bin/env bash
# Re-vendors the API reference renderer embedded at /api/docs: swagger-ui-dist from the npm
# registry, pinned by version and checked against the registry's published integrity, copied
# (the bundle, its stylesheet and its licences only) into web-ui/vendor/swagger-ui/.
set -euo pipefail
cd "$(dirname "$0")/.."
version=5.35.0
integrity="sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4YmXkn/h0wCDNsXdGarTNNHC3sU8yVUQ=="
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "swagger-ui-dist@$version" >/dev/null)
tarball="$work/swagger-ui-dist-$version.tgz"
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
[ "$actual" = "$integrity" ] || { echo "integrity mismatch: $actual" >&2; exit 1; }
tar -xzf "$tarball" -C "$work"
out=web-ui/vendor/swagger-ui
mkdir -p "$out"
for f in swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt swagger-ui.css LICENSE NOTICE; do
  cp "$work/package/$f" "$out/$f"
done
# the bundle names its source map; none is shipped
sed -i -e '/^\/\/# sourceMappingURL=/d' -e 's@/\*# sourceMappingURL=[^*]*\*/@@' "$out/swagger-ui-bundle.js" "$out/swagger-ui.css"
echo "swagger-ui-dist $version -> $out"
