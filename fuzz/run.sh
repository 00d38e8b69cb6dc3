#!/usr/bin/env bash
# Runs the fuzz targets with seeds from ../shared/testdata and from the tests' own bad inputs.
#   fuzz/run.sh TARGET RUNS [JOBS]   e.g. fuzz/run.sh url_guard 4000000 2
# Builds once (release, debug assertions on, no sanitizer: the code under test is safe Rust, and
# a sanitizer would cut the executions per second several times), then runs TARGET for RUNS
# executions per job. Targets: decode decode_detect url_guard multipart json_routes
# liveness_session. cargo-fuzz needs nightly flags; RUSTC_BOOTSTRAP=1 lets stable accept them.
set -euo pipefail
cd "$(dirname "$0")"
target="$1"
runs="${2:-100000}"
jobs="${3:-1}"
shared=../../shared/testdata
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-/var/tmp/facegate-fuzz-target}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
corpus="corpus/$target"
mkdir -p "$corpus"

seed() { printf '%b' "$2" > "$corpus/seed-$1"; }
case "$target" in
  decode|decode_detect)
    for f in "$shared"/spoof/samples/*.jpg "$shared"/nonfaces/white.png \
             "$shared"/identities/tv-cast/penny/penny1.png; do
      cp -n "$f" "$corpus/" 2>/dev/null || true
    done ;;
  url_guard)
    n=0
    for url in https://bank.example/done https://127.0.0.1/ https://2130706433/ https://0x7f000001/ \
        https://0177.0.0.1/ https://127.1/ https://0/ 'https://[::1]/' 'https://[::ffff:127.0.0.1]/' \
        'https://[::ffff:7f00:1]/' https://169.254.169.254/latest/meta-data https://100.64.0.1/ \
        'https://[fc00::1]/' 'https://[fe80::1]/' https://LOCALHOST./ https://a.localhost/ \
        https://8.8.8.8:8443/hook 'https://[2001:4860::8888]/' 'https://[64:ff9b::7f00:1]/' \
        'https://[2002:7f00:1::]/' 'https://user:pw@bank.example/' 'http://bank.example/' \
        'https://bank.example/a?b=c#d' 'https://xn--80ak6aa92e.example/' 'https://%31%32%37.0.0.1/'; do
      n=$((n + 1)); printf '%s' "$url" > "$corpus/seed-$n"
    done ;;
  multipart)
    # chunk-size byte, boundary, newline, body
    seed 1 '\x07b\n--b\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nJPEGDATA\r\n--b\r\nContent-Disposition: form-data; name="external_face_id"\r\n\r\namy\r\n--b--\r\n'
    seed 2 '\x3fxYz\n--xYz\r\nContent-Disposition: form-data; name="image"; filename="a"\r\n\r\nA\r\n--xYz\r\nContent-Disposition: form-data; name="image"; filename="b"\r\n\r\nB\r\n--xYz--\r\n'
    seed 3 '\x01q\n--q\r\nContent-Disposition: form-data; name="threshold"\r\n\r\n0.7\r\n--q\r\nContent-Disposition: form-data; name="probe"; filename="p.jpg"\r\n\r\n\xff\xd8\xff\r\n--q'
    seed 4 '\x10b\n--b\r\nContent-Disposition: form-data; name="f1"\r\n\r\nv\r\n--b\r\nContent-Disposition: form-data; name="image"\r\n\r\nnot a file part\r\n--b--\r\n' ;;
  json_routes)
    # route byte (0 collections, 1 managed session, 2 direct session, 3-6 ids and queries), body
    seed 1 '\x00{"external_id":"vip.customers:2026","description":"d"}'
    seed 2 '\x00{"external_id":"\x27; DROP TABLE faces; --","description":"\\u0000"}'
    seed 3 '\x01{"mode":"passive","reference_id":"r-1","redirect_url":"https://bank.example/done"}'
    seed 4 '\x01{"webhook_url":"https://127.0.0.1/hook","reference_id":"a\\u0000b"}'
    seed 5 '\x02{"fingerprint_id":"fp-123","mode":"passive"}'
    seed 6 '\x02'
    seed 7 '\x03max_results=10&next_token=abc'
    seed 8 '\x04../../etc/passwd'
    seed 9 '\x0501926d5e-7a1e-7c3b-9a51-4d2e8f6b1a90'
    seed 10 '\x06x\x00y' ;;
  liveness_session)
    # mode byte, then (i16 step, u16 length, bytes) records: real frames from a shared video
    if command -v ffmpeg >/dev/null; then
      tmp="$(mktemp -d)"
      ffmpeg -loglevel error -i "$shared/videos/webcam-man-1.mp4" -t 2 -r 8 -vf scale=320:-2 -q:v 8 "$tmp/%03d.jpg"
      python3 - "$tmp" "$corpus/seed-video" <<'PY'
import os, struct, sys
frames = sorted(os.listdir(sys.argv[1]))
out = bytearray([0])
for name in frames:
    data = open(os.path.join(sys.argv[1], name), 'rb').read()[:65535]
    out += struct.pack('<hH', 125, len(data)) + data
open(sys.argv[2], 'wb').write(out)
PY
      rm -rf "$tmp"
    fi
    seed 1 '\x01\x00\x00\x04\x00abcd\xff\xff\x02\x00\xff\xd8' ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac

RUSTC_BOOTSTRAP=1 cargo fuzz build -O -a -s none "$target"
parallel=()
# with one job libFuzzer reports on stdout; with several each writes fuzz-N.log here
if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); fi
RUSTC_BOOTSTRAP=1 cargo fuzz run -O -a -s none "$target" "$corpus" -- \
  -runs="$runs" "${parallel[@]}" -max_len=200000 -rss_limit_mb=4096 -timeout=30 \
  -print_final_stats=1
