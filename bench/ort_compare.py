#!/usr/bin/env python3
"""Times every model of models/manifest.toml in onnxruntime and in tract, one thread each, in
one run, for the tract / onnxruntime ratio in docs/benchmarks.md (issue 16 wants it at most 1.3
for every model). onnxruntime and tract both get fixed-seed uniform [0, 1) tensors of the
model's input shape (`examples/model_costs`; all zeros would make some graphs carry slow
denormal floats). tract runs twice: as it ships (`FACEGATE_PLAIN_TRACT=1`) and with the
engine's own kernels (crates/face-engine/src/kernels). All are pinned to the same core and
report the best of two medians of 60 runs after 5 warm-up runs. On an AMD Zen 4 both tract
runs use tract's AVX2 matrix kernels, the engine's default there (kernels/vector_width.rs);
`TRACT_CPU_ISA=+avx512f python bench/ort_compare.py` times its AVX-512 ones.

Usage: python bench/ort_compare.py   (needs: pip install onnxruntime numpy; builds the
example with cargo --release)
"""
import os
import statistics
import subprocess
import sys
import time
import tomllib

import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
MODELS = os.path.join(ROOT, "models")
CORE = "0"


def time_model(path, runs=60):
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # onnxruntime at its fastest: denormal floats flushed to zero. Without this its embedder
    # took 55.8 ms here on the same input (Intel Xeon, 2026-11-24): the random input drives
    # some activations into denormals, which x86 handles slowly.
    opts.add_session_config_entry("session.set_denormal_as_zero", "1")
    session = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    inp = session.get_inputs()[0]
    shape = [d if isinstance(d, int) else 1 for d in inp.shape]
    x = np.random.default_rng(7).random(shape, dtype=np.float32)
    for _ in range(5):
        session.run(None, {inp.name: x})
    best = None
    for _ in range(2):
        samples = []
        for _ in range(runs):
            t = time.perf_counter()
            session.run(None, {inp.name: x})
            samples.append((time.perf_counter() - t) * 1000)
        median = statistics.median(samples)
        best = median if best is None else min(best, median)
    return shape, best


def tract_times(plain):
    subprocess.run(
        ["cargo", "build", "-q", "--release", "-p", "facegate-face-engine",
         "--example", "model_costs"],
        cwd=ROOT, check=True,
    )
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    env = dict(os.environ, FACEGATE_PLAIN_TRACT="1" if plain else "0")
    out = subprocess.run(
        ["taskset", "-c", CORE, os.path.join(target, "release", "examples", "model_costs")],
        cwd=ROOT, check=True, capture_output=True, text=True, env=env,
    ).stdout
    return {role: float(ms) for role, ms in (line.split() for line in out.splitlines())}


def main():
    with open(os.path.join(MODELS, "manifest.toml"), "rb") as f:
        manifest = tomllib.load(f)["model"]
    plain = tract_times(plain=True)
    tract = tract_times(plain=False)
    os.sched_setaffinity(0, {int(CORE)})
    print(f"onnxruntime {ort.__version__} and tract, 1 thread, core {CORE}, "
          "best of two medians of 60 runs")
    print("| model | role | input | onnxruntime | tract as shipped | ratio | tract, our kernels | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for model in manifest:
        shape, ms = time_model(os.path.join(MODELS, model["file"]))
        p, t = plain[model["role"]], tract[model["role"]]
        print(f"| {model['file']} | {model['role']} | {shape} | {ms:.2f} ms | {p:.2f} ms | {p / ms:.2f} "
              f"| {t:.2f} ms | {t / ms:.2f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
