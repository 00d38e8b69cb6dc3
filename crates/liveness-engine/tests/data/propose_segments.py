#!/usr/bin/env python3
"""Proposes labelled segments (neutral, blink, turn_left, turn_right, smile) for a video from
the per-frame measurements of `cargo run --release -p facegate-liveness-engine --example
probe_frames -- models FRAMES_DIR 15`. The proposals were then checked by eye on contact
sheets (ffmpeg tile) before they went into video_segments.toml.

Usage: propose_segments.py VIDEO_NAME PROBE.tsv
"""
import statistics
import sys

name, path = sys.argv[1], sys.argv[2]
rows = []
for line in open(path):
    parts = line.split("\t")
    if line.startswith(("t_s", "#")) or len(parts) < 11:
        continue
    t, faces, yaw, pitch, ear, mw, mo = (float(x) for x in parts[:7])
    rows.append(dict(t=t, faces=int(faces), yaw=yaw, ear=ear, mw=mw, mo=mo))

frontal = [r for r in rows if abs(r["yaw"]) < 10]
base = dict(
    yaw=statistics.median(r["yaw"] for r in frontal),
    ear=statistics.median(r["ear"] for r in frontal),
    # the lower third: clips that smile most of the time must not make a smile the rest
    mw=statistics.quantiles([r["mw"] for r in frontal], n=3)[0],
)


def neutral(r):
    return (abs(r["yaw"] - base["yaw"]) < 6 and r["ear"] > 0.85 * base["ear"]
            and r["mw"] < 1.04 * base["mw"] and r["faces"] == 1)


tests = dict(
    blink=lambda r: r["ear"] < 0.55 * base["ear"] and abs(r["yaw"] - base["yaw"]) < 15,
    turn_left=lambda r: r["yaw"] - base["yaw"] > 17,
    turn_right=lambda r: r["yaw"] - base["yaw"] < -17,
    smile=lambda r: r["mw"] > 1.2 * base["mw"],
)

segments = []
# neutral runs of at least 0.6 s
run = []
for r in rows + [None]:
    if r is not None and neutral(r):
        run.append(r)
        continue
    if run and run[-1]["t"] - run[0]["t"] >= 0.6:
        segments.append(("neutral", run[0]["t"], run[-1]["t"] + 0.07))
    run = []
# actions: contiguous runs, padded by 0.2 s
for kind, test in tests.items():
    run = []
    for r in rows + [None]:
        if r is not None and test(r):
            run.append(r)
            continue
        if run:
            segments.append((kind, max(0.0, run[0]["t"] - 0.2), run[-1]["t"] + 0.27))
        run = []

merged = []
for seg in sorted(segments, key=lambda s: (s[0], s[1])):
    if merged and merged[-1][0] == seg[0] and seg[1] <= merged[-1][2]:
        merged[-1] = (seg[0], merged[-1][1], max(merged[-1][2], seg[2]))
    else:
        merged.append(seg)
segments = merged

print(f"[[video]]\nvideo = \"{name}\"")
print(f"# resting values: yaw {base['yaw']:.1f}, eye openness {base['ear']:.3f}, mouth width {base['mw']:.3f}")
for kind, start, end in sorted(segments, key=lambda s: s[1]):
    print(f"[[video.segment]]\nkind = \"{kind}\"\nstart = {start:.2f}\nend = {end:.2f}")
