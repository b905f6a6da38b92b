#!/usr/bin/env python3
"""cuBLAS through PyTorch on the shapes `tailor bench` runs: the reference column of doc/performance.md.

FP32 with TF32 off, so cuBLAS does the same arithmetic as tailor's SGEMM; --dtype f16 or bf16
times cuBLAS's half-precision GEMM (f32 accumulation, C in the input type) for tailor_gemm. A
shape's `:bN` runs a strided batch of N (torch.matmul on 3-D tensors, i.e. bmm). Each shape is
timed as the median of 7 batches of back-to-back calls (CUDA events around each batch), like
tailor bench.

    python3 tools/cublas_reference.py [--json FILE] [--dtype f32|f16|bf16] [--kernels] [--shapes MxNxK[:ta][:tb][:bN],...]

--kernels also lists the CUDA kernels behind each shape's call (torch.profiler: cuBLAS's tile
shapes and split-k reductions, with their median times), the plans tailor's are compared with.
"""
import argparse
import json

import torch

from cuda_timing import time_batches

# The GPU rows of `tailor bench --op sgemm`; its column-major rows at 4096^3 are these row-major
# ones with the operands swapped (column-major NT is row-major TN, TN is NT).
DEFAULT_SHAPES = [
    "1024x1024x2048", "4096x4096x4096", "8192x8192x8192", "4096x4096x4096:ta", "4096x4096x4096:tb",
    "4096x4096x4096:ta:tb", "1024x1024x2048:tb", "4097x4095x4093", "8192x256x4096", "256x8192x4096:tb",
    "4096x4096x128", "256x256x65536", "1000x1000x1000", "4097x4097x4097", "3000x200x5000",
    "128x8192x128", "4096x8x4096", "16x4096x4096:tb",
]


def parse(shape):
    parts = shape.split(":")
    m, n, k = (int(v) for v in parts[0].split("x"))
    batch = [int(p[1:]) for p in parts[1:] if p.startswith("b")]
    return m, n, k, "ta" in parts[1:], "tb" in parts[1:], batch[0] if batch else 0


def print_kernels(torch, fn, calls=5):
    from torch.profiler import ProfilerActivity, profile

    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    times = {}
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            times.setdefault(event.name, []).append(event.device_time_total)
    for name, spans in times.items():
        print(f"    {len(spans)}x {sorted(spans)[len(spans) // 2]:9.1f} us  {name}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--shapes", default=",".join(DEFAULT_SHAPES))
    parser.add_argument("--dtype", default="f32", choices=["f32", "f16", "bf16"])
    parser.add_argument("--kernels", action="store_true", help="list the CUDA kernels of each call")
    args = parser.parse_args()
    dtype = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[args.dtype]
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    rows = []
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, TF32 off, {args.dtype}")
    for shape in args.shapes.split(","):
        m, n, k, ta, tb, batch = parse(shape)
        lead = (batch,) if batch else ()
        # Row-major C = op(A) op(B): a transposed operand is stored as its transpose.
        a = torch.randn(lead + ((k, m) if ta else (m, k)), device="cuda", dtype=dtype)
        b = torch.randn(lead + ((n, k) if tb else (k, n)), device="cuda", dtype=dtype)
        c = torch.empty(lead + (m, n), device="cuda", dtype=dtype)
        op_a, op_b = (a.transpose(-1, -2) if ta else a), (b.transpose(-1, -2) if tb else b)
        seconds = time_batches(torch, lambda: torch.matmul(op_a, op_b, out=c))
        gflops = 2.0 * m * n * k * max(batch, 1) / seconds / 1e9
        rows.append({"shape": shape, "dtype": args.dtype, "seconds": seconds, "gflops": gflops})
        print(f"{args.dtype} gemm {shape:>22}  {seconds * 1e6:10.1f} us  {gflops:9.0f} GFLOP/s")
        if args.kernels:
            print_kernels(torch, lambda: torch.matmul(op_a, op_b, out=c))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
