#!/usr/bin/env bash
# An identity set of LFW's size (13,233 images) pooled from ../shared/testdata, for timing
# `facegate eval verify` and `eval search` at that size (issue 68: "finish on a 13k-image set
# within 10 minutes on 2 cores"). LFW itself is not in testdata, so this set is real people's
# photos and video frames, laid out as DIR/<identity>/<image>:
# - the identity photos (celebs, johns, tv-cast: 26 people) and NUAA's live and printed crops
#   (8 subjects), linked in place, not copied;
# - every frame of the real-person videos (9 clips, and the real halves of the 12 face-swap
#   pairs), one identity a clip, extracted as JPEG (quality 3) with ffmpeg, the longest clip
#   cut so that the set holds exactly 13,233 images.
# Consecutive video frames are near-duplicates and two clips may show the same person, so the
# set is for speed, not for accuracy figures. Usage: bench/lfw_size_set.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: bench/lfw_size_set.sh OUT_DIR}"
data="$(cd ../shared/testdata && pwd)"
target=13233
rm -rf "$out"
mkdir -p "$out"
for set in celebs johns tv-cast; do
  for person in "$data/identities/$set"/*/; do
    ln -s "$person" "$out/$set-$(basename "$person")"
  done
done
for subject in "$data/spoof/nuaa/live"/*/; do
  id="$(basename "$subject")"
  mkdir -p "$out/nuaa-$id"
  for kind in live print; do
    for image in "$data/spoof/nuaa/$kind/$id"/*; do
      ln -s "$image" "$out/nuaa-$id/$kind-$(basename "$image")"
    done
  done
done
# the longest clip last, cut to what the target leaves
clips=()
for clip in "$data"/videos/*.mp4 "$data"/videos/face-swap/pair*-real.mp4; do
  [ "$(basename "$clip")" = talking-man-bluescreen.mp4 ] || clips+=("$clip")
done
clips+=("$data/videos/talking-man-bluescreen.mp4")
images() { find -L "$1" -type f \( -name '*.jpg' -o -name '*.png' -o -name '*.jpeg' \) | wc -l; }
left=$((target - $(images "$out")))
for clip in "${clips[@]}"; do
  [ "$left" -gt 0 ] || break
  name="video-$(basename "$clip" .mp4)"
  mkdir -p "$out/$name"
  ffmpeg -v error -i "$clip" -frames:v "$left" -q:v 3 "$out/$name/%05d.jpg"
  left=$((left - $(images "$out/$name")))
done
echo "$out: $(images "$out") images of $(find "$out" -mindepth 1 -maxdepth 1 | wc -l) identities"
