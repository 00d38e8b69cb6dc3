#!/usr/bin/env python3
"""Facegate's engine beside `face_recognition` (dlib) on the same images, in one run.

Per image, both do what a compare needs of one side: decode the JPEG, find the face and
compute its identity vector. face_recognition: `load_image_file`, `face_locations` (HOG, its
default, one upsample) and `face_encodings` (its default 5-point model, one jitter).
Facegate: `examples/compare_costs` (decode, primary face, 468-point mesh, alignment,
512-d embedding). Both are pinned to the same single core with `taskset` and report the
median per image over several rounds. Issue 16 wants Facegate at least 20 times faster.

Usage: python bench/face_recognition_compare.py [IMAGE...]
  (default: the first photo of every celebs identity in ../shared/testdata)
Needs: pip install face_recognition (builds dlib: cmake and a C++ compiler), and a release
build of the example (the script runs `cargo build --release` for it).
"""
import glob
import os
import platform
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
TESTDATA = os.path.join(ROOT, "..", "shared", "testdata")
ROUNDS = 5
CORE = "0"


def default_images():
    images = []
    for identity in sorted(glob.glob(os.path.join(TESTDATA, "identities", "celebs", "id*"))):
        photos = sorted(glob.glob(os.path.join(identity, "*.jpg")))
        if photos:
            images.append(photos[0])
    return images


def time_face_recognition(images):
    import face_recognition  # imported here so --help works without it

    per_image = []
    found = 0
    for _ in range(ROUNDS):
        for path in images:
            start = time.perf_counter()
            pixels = face_recognition.load_image_file(path)
            boxes = face_recognition.face_locations(pixels)
            encodings = face_recognition.face_encodings(pixels, known_face_locations=boxes[:1])
            per_image.append((time.perf_counter() - start) * 1000)
            found += bool(encodings)
    return statistics.median(per_image), found // ROUNDS


def build_facegate():
    subprocess.run(
        ["cargo", "build", "-q", "--release", "-p", "facegate-face-engine",
         "--example", "compare_costs"],
        cwd=ROOT, check=True,
    )


def time_facegate(images):
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    example = os.path.join(target, "release", "examples", "compare_costs")
    out = subprocess.run(
        ["taskset", "-c", CORE, example, *images],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    stages = dict(re.findall(r"^\s*(\w+):\s+([\d.]+) ms", out, re.M))
    return float(stages["total"]), stages


def main():
    images = sys.argv[1:] or default_images()
    if not images:
        sys.exit("no images: pass some, or put ../shared/testdata beside the repository")
    if "--pinned" not in os.environ.get("FR_COMPARE", ""):
        # re-run this script pinned to one core, so dlib and tract get the same CPU
        build_facegate()
        os.environ["FR_COMPARE"] = "--pinned"
        os.execvp("taskset", ["taskset", "-c", CORE, sys.executable, *sys.argv[:1], *images])
    print(f"{len(images)} images, {ROUNDS} rounds, one core ({platform.processor() or platform.machine()})")
    facegate_ms, stages = time_facegate(images)
    dlib_ms, dlib_found = time_face_recognition(images)
    print("| engine | per image (median) | faces found |")
    print("|---|---|---|")
    print(f"| face_recognition (dlib HOG + ResNet 128-d) | {dlib_ms:.1f} ms | {dlib_found} of {len(images)} |")
    print(f"| Facegate (selfie detector, mesh, 512-d) | {facegate_ms:.1f} ms | {len(images)} of {len(images)} (the example stops on a miss) |")
    print(f"speed-up: {dlib_ms / facegate_ms:.1f}x")
    print("Facegate stages (median ms): " + ", ".join(f"{k} {v}" for k, v in stages.items()))


if __name__ == "__main__":
    main()
