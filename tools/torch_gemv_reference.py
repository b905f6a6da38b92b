#!/usr/bin/env python3
"""PyTorch's GEMV on the rows of `tailor bench --op gemv`: the reference column of
doc/performance.md for tailor_sgemv and tailor_gemv.

y = alpha A x + beta y (alpha 1, beta 0.5, as the bench) by `y.addmv_(A, x)`, with A row-major
m x n and, for `:t`, A transposed (`A.t()`, a view, as tailor's row-major trans). A, x and y are
all of the row's dtype: f32, f16 or bf16; `:xN` reads x with a stride of N (N > 0: torch has no
negative strides). GB/s count the bytes the bench counts (A and x read, y read and written).
Timed as tools/cublas_reference.py times (the median of 7 batches of back-to-back calls, CUDA
events around each batch).

    python3 tools/torch_gemv_reference.py [--json FILE] [--shapes MxN[:t][:f16|:bf16][:xN],...]
"""
import argparse
import json

import torch

from cuda_timing import time_batches

DEFAULT_SHAPES = [
    "8192x8192", "8192x8192:t", "1024x65536", "65536x1024",
    "8192x8192:f16", "8192x8192:t:f16", "8192x8192:bf16",
]
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def parse(shape):
    parts = shape.split(":")
    m, n = (int(v) for v in parts[0].split("x"))
    dtype = next((p for p in parts[1:] if p in DTYPES), "f32")
    incx = next((int(p[1:]) for p in parts[1:] if p.startswith("x")), 1)
    return m, n, "t" in parts[1:], dtype, incx


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--shapes", default=",".join(DEFAULT_SHAPES))
    args = parser.parse_args()
    rows = []
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    for shape in args.shapes.split(","):
        m, n, trans, dtype, incx = parse(shape)
        element = torch.tensor([], dtype=DTYPES[dtype]).element_size()
        a = torch.randn(m, n, device="cuda", dtype=DTYPES[dtype])
        outputs, k = (n, m) if trans else (m, n)
        x = torch.randn(k * incx, device="cuda", dtype=DTYPES[dtype])[::incx]
        y = torch.randn(outputs, device="cuda", dtype=DTYPES[dtype])
        op_a = a.t() if trans else a
        seconds = time_batches(torch, lambda: y.addmv_(op_a, x, beta=0.5, alpha=1.0))
        moved = element * (m * n + k + 2 * outputs)
        rows.append({"shape": shape, "dtype": dtype, "seconds": seconds, "gbps": moved / seconds / 1e9})
        print(f"{dtype:4} gemv{'-t' if trans else '  '} {m:6}x{n:<6} {seconds * 1e6:10.1f} us  "
              f"{moved / seconds / 1e9:8.1f} GB/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, f,
                      indent=1)


if __name__ == "__main__":
    main()
