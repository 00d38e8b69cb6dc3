"""Drops the graph inputs that are also initializers (weights) from an ONNX model.

Older exporters (MXNet's, for SFace) list every weight as a graph input too; onnxruntime treats
them as overridable constants, tract as inputs to feed. Dropping them from the inputs leaves the
function unchanged.

Usage: python drop_weight_inputs.py IN.onnx OUT.onnx   (needs the `onnx` package)
"""
import sys

import onnx


def main(source: str, target: str) -> None:
    model = onnx.load(source)
    weights = {init.name for init in model.graph.initializer}
    kept = [i for i in model.graph.input if i.name not in weights]
    dropped = len(model.graph.input) - len(kept)
    del model.graph.input[:]
    model.graph.input.extend(kept)
    onnx.checker.check_model(model)
    onnx.save(model, target)
    print(f"{target}: {dropped} weight inputs dropped")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
