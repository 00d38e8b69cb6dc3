"""Rewrites every PRelu(x, a) of an ONNX model as Add(Relu(x), Mul(Min(x, 0), a)).

The two are the same function and give bit-identical results (x + 0 = x for x > 0, and
0 + a * x = a * x for x < 0). tract runs ONNX PRelu as a comparison, a multiply and a select
over generic ndarray loops, while Relu, Min, Mul and Add use its vectorised kernels: measured
on this project's 2-core machine, the anti-spoof model went from 20.0 to 10.4 ms, the embedder
from 37.0 to 17.7 ms and the landmark mesh from 9.4 to 6.0 ms (docs/benchmarks.md).

Usage: python prelu_to_relu.py IN.onnx OUT.onnx   (needs the `onnx` package)
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper


def rewrite(model: onnx.ModelProto) -> int:
    graph = model.graph
    zero = "prelu_rewrite_zero"
    graph.initializer.append(numpy_helper.from_array(np.array(0.0, dtype=np.float32), zero))
    nodes, rewritten = [], 0
    for index, node in enumerate(graph.node):
        if node.op_type != "PRelu":
            nodes.append(node)
            continue
        x, alpha = node.input
        (y,) = node.output
        p = f"prelu{index}"
        nodes += [
            helper.make_node("Relu", [x], [p + "_pos"]),
            helper.make_node("Min", [x, zero], [p + "_neg"]),
            helper.make_node("Mul", [p + "_neg", alpha], [p + "_scaled"]),
            helper.make_node("Add", [p + "_pos", p + "_scaled"], [y]),
        ]
        rewritten += 1
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    return rewritten


if __name__ == "__main__":
    source, target = sys.argv[1], sys.argv[2]
    model = onnx.load(source)
    count = rewrite(model)
    onnx.save(model, target)
    print(f"{target}: {count} PRelu rewritten")
