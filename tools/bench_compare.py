#!/usr/bin/env python3
"""Compares `tailor bench --json` runs of two builds measured in turns on one machine.

    python3 tools/bench_compare.py --before old1.json old2.json --after new1.json new2.json

Rows are matched by op, dtype and shape, and rows that share those (SGEMM's layouts) by their
order in the run. Each side's time is the best (lowest) of its runs, so a
row is flagged only when every run of the new build was slower than the best run of the old one
by more than --noise (default 5%); every run of both sides is printed relative to the best before, so that the machine's noise on
the row (the spread of the before column) shows beside the difference.
"""
import argparse
import json
import sys


def key(row, seen):
    shape = row["shape"]
    base = (row["op"], row["dtype"], shape.get("m", -1), shape["n"], shape.get("k", -1))
    seen[base] = seen.get(base, 0) + 1
    return base + (seen[base],)


def label(k):
    op, dtype, m, n, kk, nth = k
    dims = "x".join(str(v) for v in (m, n, kk) if v >= 0)
    return f"{op} {dtype} {dims}" + (f" #{nth}" if nth > 1 else "")


def load(paths):
    runs = []
    for path in paths:
        with open(path) as f:
            seen = {}
            runs.append({key(r, seen): r for r in json.load(f)["rows"]})
    return runs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", nargs="+", required=True)
    parser.add_argument("--after", nargs="+", required=True)
    parser.add_argument("--noise", type=float, default=0.05)
    args = parser.parse_args()
    before, after = load(args.before), load(args.after)
    slower = 0
    print("| row | variant | best before | best after | after/before | before's runs | after's runs |")
    print("|---|---|---|---|---|---|---|")
    for k in before[0]:
        if not all(k in run for run in before + after):
            print(f"| {label(k)} | missing in a run | | | | | |")
            continue
        old = min(run[k]["seconds"] for run in before)
        new = min(run[k]["seconds"] for run in after)
        ratio = new / old
        # Both sides' runs relative to the best before: the spread of the
        # before column is the machine's own noise on that row.
        runs = [" ".join(f"{run[k]['seconds'] / old:.2f}" for run in side) for side in (before, after)]
        variant = before[0][k]["variant"]
        if after[0][k]["variant"] != variant:
            variant += " → " + after[0][k]["variant"]
        flag = ""
        if ratio > 1 + args.noise:
            flag = " **slower**"
            slower += 1
        print(f"| {label(k)} | {variant} | {old * 1e6:.1f} µs | {new * 1e6:.1f} µs | {ratio:.3f}{flag} | "
              f"{runs[0]} | {runs[1]} |")
    print(f"\n{slower} row(s) slower than before by more than {args.noise:.0%}")
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
