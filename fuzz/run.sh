#!/usr/bin/env bash
# Runs the decode+detect fuzzer for SECONDS (default 300) with seeds from ../shared/testdata.
# cargo-fuzz needs nightly flags; RUSTC_BOOTSTRAP=1 lets the stable toolchain accept them.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-300}"
mkdir -p corpus/decode_detect
for f in ../../shared/testdata/spoof/samples/*.jpg ../../shared/testdata/nonfaces/white.png \
         ../../shared/testdata/identities/tv-cast/penny/penny1.png; do
  cp -n "$f" corpus/decode_detect/ 2>/dev/null || true
done
RUSTC_BOOTSTRAP=1 cargo fuzz run decode_detect corpus/decode_detect -- \
  -max_total_time="$seconds" -max_len=200000 -rss_limit_mb=4096 -timeout=20
