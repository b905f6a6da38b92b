#!/usr/bin/env python3
"""PyTorch on the cases of a `tailor bench --sweep OP --json FILE` run, side by side with tailor.

Each case is rebuilt from the sweep's JSON exactly: flat CUDA buffers holding the case's whole
extent, views made with as_strided for leading dimensions, offsets and increments.

- transpose: a flat tensor of uint8, int16, int32, int64 or (16 bytes) complex128;
  `B.copy_(A.t())` into the strided view of B's buffer.
- gemv: float32, y = alpha op(A) x + beta y by `y.addmv_(op(A), x)` on the strided views
  (alpha and beta from the JSON); layout and trans map to .t(); x is a view of step |incx|,
  flipped for a negative incx (PyTorch has no negative strides: the flip is a copy made in every
  call, as an application would make it).

Each case is checked once, then timed as tools/cublas_reference.py times (the median of 7 batches
of back-to-back calls, CUDA events around each batch, about 20 ms a batch). GB/s use the byte
counts of the sweep (its "bytes"), so both columns count the same bytes.

    python3 tools/torch_sweep_reference.py SWEEP.json [--json OUT] [--dry-run]

--dry-run prints the cases it would time, without importing torch.
"""
import argparse
import json
import statistics
import sys

from cuda_timing import time_batches

TRANSPOSE_DTYPES = {1: "uint8", 2: "int16", 4: "int32", 8: "int64", 16: "complex128"}


def extent(offset, count, stride):
    """Elements a buffer needs to hold `count` elements `stride` apart from `offset`."""
    return offset + (count - 1) * abs(stride) + 1 if count else offset


def transpose_plan(row):
    rows, cols = row["shape"]["m"], row["shape"]["n"]
    lda, ldb = row["lda"], row["ldb"]
    a_offset, b_offset = row.get("a_offset", 0), row.get("b_offset", 0)
    return {
        "op": "transpose",
        "case": row["case"],
        "dtype": TRANSPOSE_DTYPES[row["element_bytes"]],
        "element_bytes": row["element_bytes"],
        "a_elements": a_offset + (rows - 1) * lda + cols,
        "a_view": ((rows, cols), (lda, 1), a_offset),
        "b_elements": b_offset + (cols - 1) * ldb + rows,
        "b_view": ((cols, rows), (ldb, 1), b_offset),
        "bytes": row["bytes"],
        "tailor_gbps": row["gbps"],
        "reference": row.get("reference", False),
        "expression": "B.copy_(A.t())",
    }


def gemv_plan(row, sweep):
    m, n = row["shape"]["m"], row["shape"]["n"]
    lda = row["lda"]
    row_major, as_stored = row["layout"] == "R", row["trans"] == "N"
    outputs, k = (m, n) if as_stored else (n, m)
    incx, incy = row["incx"], row["incy"]
    a_offset, x_offset, y_offset = row.get("a_offset", 0), row.get("x_offset", 0), row.get("y_offset", 0)
    lines, line = (m, n) if row_major else (n, m)
    a_strides = (lda, 1) if row_major else (1, lda)
    expression = ("A" if as_stored else "A.t()") + (" x" if incx > 0 else " x.flip(0)")
    return {
        "op": "gemv",
        "case": row["case"],
        "dtype": "float32",
        "element_bytes": 4,
        "alpha": sweep.get("alpha", 1.5),
        "beta": sweep.get("beta", 0.5),
        "a_elements": a_offset + (lines - 1) * lda + line,
        "a_view": ((m, n), a_strides, a_offset),
        "trans": not as_stored,
        "x_elements": extent(x_offset, k, incx),
        "x_view": ((k,), (abs(incx),), x_offset),
        "x_flip": incx < 0,
        "y_elements": extent(y_offset, outputs, incy),
        "y_view": ((outputs,), (abs(incy),), y_offset),
        "y_flip": incy < 0,
        "bytes": row["bytes"],
        "tailor_gbps": row["gbps"],
        "reference": row.get("reference", False),
        "expression": f"y.addmv_({expression}, alpha, beta)" + (" on y.flip(0)" if incy < 0 else ""),
    }


def plans(report):
    sweep = report.get("sweep", {})
    result = []
    for row in report["rows"]:
        if "case" not in row:
            continue
        if row["op"] == "transpose":
            result.append(transpose_plan(row))
        elif row["op"] == "gemv":
            result.append(gemv_plan(row, sweep))
    return result


def describe(plan):
    parts = [f"{plan['op']:9} {plan['case']:14} {plan['dtype']:10}"]
    for name in ("a", "b", "x", "y"):
        if f"{name}_view" in plan:
            size, stride, offset = plan[f"{name}_view"]
            parts.append(f"{name.upper()}[{plan[name + '_elements']}] as_strided({size}, {stride}, {offset})")
    parts.append(plan["expression"])
    return "  ".join(parts)


def filled(torch, count, dtype, period):
    """A CUDA buffer of `count` elements repeating a short pattern (exact in every dtype)."""
    values = torch.arange(count, device="cuda", dtype=torch.int64) % period
    return values.to(getattr(torch, dtype))


def view(torch, buffer, spec):
    size, stride, offset = spec
    return torch.as_strided(buffer, size, stride, offset)


def transpose_call(torch, plan):
    a = filled(torch, plan["a_elements"], plan["dtype"], 251)
    b = torch.zeros(plan["b_elements"], device="cuda", dtype=getattr(torch, plan["dtype"]))
    a_view, b_view = view(torch, a, plan["a_view"]), view(torch, b, plan["b_view"])

    def call():
        b_view.copy_(a_view.t())

    call()
    if not torch.equal(b_view, a_view.t()):
        raise RuntimeError(f"transpose {plan['case']}: PyTorch's B is not A^T")
    return call


def gemv_call(torch, plan):
    a = (filled(torch, plan["a_elements"], "float32", 7) - 3) * 0.125
    x = (filled(torch, plan["x_elements"], "float32", 5) - 2) * 0.5
    y = filled(torch, plan["y_elements"], "float32", 3) - 1
    a_view = view(torch, a, plan["a_view"])
    op_a = a_view.t() if plan["trans"] else a_view
    x_view, y_view = view(torch, x, plan["x_view"]), view(torch, y, plan["y_view"])
    alpha, beta = plan["alpha"], plan["beta"]

    def call():
        xs = x_view.flip(0) if plan["x_flip"] else x_view
        if plan["y_flip"]:
            y_view.copy_(torch.addmv(y_view.flip(0), op_a, xs, beta=beta, alpha=alpha).flip(0))
        else:
            y_view.addmv_(op_a, xs, beta=beta, alpha=alpha)

    y0 = y_view.clone()
    call()
    xs = x_view.flip(0) if plan["x_flip"] else x_view
    ys = y0.flip(0) if plan["y_flip"] else y0
    expected = alpha * (op_a.double() @ xs.double()) + beta * ys.double()
    got = y_view.flip(0) if plan["y_flip"] else y_view
    k = op_a.shape[1]
    size = alpha * (op_a.double().abs() @ xs.double().abs()) + beta * ys.double().abs()
    if not bool(((got.double() - expected).abs() <= (k + 4) * 2.0 ** -24 * size + 1e-30).all()):
        raise RuntimeError(f"gemv {plan['case']}: PyTorch's y is off the reference")
    return call


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sweep_json", help="written by tailor bench --sweep OP --json FILE")
    parser.add_argument("--json", help="write the side-by-side rows here")
    parser.add_argument("--dry-run", action="store_true", help="print the cases; do not import torch")
    args = parser.parse_args()
    with open(args.sweep_json) as f:
        report = json.load(f)
    cases = plans(report)
    if not cases:
        print(f"{args.sweep_json}: no sweep rows", file=sys.stderr)
        return 1
    if args.dry_run:
        for plan in cases:
            print(describe(plan))
        print(f"{len(cases)} cases")
        return 0

    import torch  # here, so that --dry-run runs where torch is absent

    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}; tailor on {report['device']['name']}")
    print(f"{'case':14} {'bytes':>5} {'tailor GB/s':>12} {'PyTorch GB/s':>13} {'tailor/PyTorch':>15} "
          f"{'PyTorch %aligned':>17}")
    rows, reference_gbps = [], {}
    for plan in cases:
        try:
            call = (transpose_call if plan["op"] == "transpose" else gemv_call)(torch, plan)
            seconds = time_batches(torch, call)
        except RuntimeError as error:  # torch.cuda.OutOfMemoryError among them
            print(f"{plan['case']:14} {plan['element_bytes']:5} failed: {error}")
            rows.append({"op": plan["op"], "case": plan["case"], "element_bytes": plan["element_bytes"],
                         "error": str(error)})
            torch.cuda.empty_cache()
            continue
        gbps = plan["bytes"] / seconds / 1e9
        if plan["reference"]:
            reference_gbps[plan["element_bytes"]] = gbps
        aligned = gbps / reference_gbps[plan["element_bytes"]] if plan["element_bytes"] in reference_gbps else None
        ratio = plan["tailor_gbps"] / gbps
        rows.append({"op": plan["op"], "case": plan["case"], "element_bytes": plan["element_bytes"],
                     "bytes": plan["bytes"], "tailor_gbps": plan["tailor_gbps"], "torch_seconds": seconds,
                     "torch_gbps": gbps, "tailor_over_torch": ratio, "torch_fraction_of_aligned": aligned})
        aligned_text = f"{100 * aligned:.1f}%" if aligned is not None else "-"
        print(f"{plan['case']:14} {plan['element_bytes']:5} {plan['tailor_gbps']:12.1f} {gbps:13.1f} "
              f"{ratio:14.2f}x {aligned_text:>17}", flush=True)
        torch.cuda.empty_cache()
    ratios = [r["tailor_over_torch"] for r in rows if "tailor_over_torch" in r]
    if ratios:
        worst = min((r for r in rows if "tailor_over_torch" in r), key=lambda r: r["tailor_over_torch"])
        print(f"\ntailor/PyTorch over {len(ratios)} cases: min {min(ratios):.2f}x "
              f"({worst['case']}, {worst['element_bytes']}-byte), median {statistics.median(ratios):.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"torch": torch.__version__, "gpu": torch.cuda.get_device_name(),
                       "tailor_device": report["device"]["name"], "rows": rows}, f, indent=1)
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
