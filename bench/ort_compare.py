#!/usr/bin/env python3
"""Times each bundled ONNX model in onnxruntime on one thread, for the tract / onnxruntime
ratio in docs/benchmarks.md. Inputs are the real preprocessed crops of
testdata/spoof/samples/live.jpg where the preprocessing is cheap to reproduce in numpy, else
fixed-seed tensors of the model's input shape (inference time does not depend on values).

Usage: python bench/ort_compare.py   (needs: pip install onnxruntime numpy)
"""
import glob
import os
import statistics
import time

import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "models")


def time_model(path, runs=60):
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
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


def main():
    print(f"onnxruntime {ort.__version__}, 1 thread, best of two medians of 60 runs")
    for path in sorted(glob.glob(os.path.join(MODELS, "*.onnx"))):
        shape, ms = time_model(path)
        print(f"{os.path.basename(path):36s} {str(shape):20s} {ms:8.2f} ms")


if __name__ == "__main__":
    main()
