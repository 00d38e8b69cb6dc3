#!/usr/bin/env bash
# Validates every Kubernetes manifest under deploy/kubernetes/ against a current Kubernetes
# schema (kubernetes-validate from PyPI, pinned; strict: an unknown field is an error). A
# manifest that does not validate fails the run; nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.37.0
if ! kubernetes-validate --version 2>/dev/null | grep -qx "$version"; then
  python3 -m pip install --quiet --disable-pip-version-check "kubernetes-validate==$version" >/dev/null 2>&1
fi
mapfile -t manifests < <(find deploy/kubernetes -name '*.yaml' | sort)
[ "${#manifests[@]}" -ge 2 ] || { echo "no manifests under deploy/kubernetes" >&2; exit 1; }
kubernetes-validate --strict --kubernetes-version "$version" --quiet "${manifests[@]}"
echo "kubernetes manifests valid against Kubernetes $version (strict): ${#manifests[@]} files"
