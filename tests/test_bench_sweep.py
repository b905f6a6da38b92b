#!/usr/bin/env python3
"""tailor bench --sweep OP --quick on the CPU device, through the CLI: every case runs and is
right (exit status 0), each prints a row, the summary lines follow, the JSON holds each case's
arguments, its fraction of the aligned path and the summary, and
tools/torch_sweep_reference.py --dry-run rebuilds every case from that JSON. The transpose runs
without CLBlast, GEMV beside it where the build has it. Exits 77 (skipped) without a CPU device.

usage: test_bench_sweep.py TAILOR_TOOL TORCH_SWEEP_REFERENCE"""
import json
import os
import subprocess
import sys
import tempfile

TOOL, REFERENCE = sys.argv[1], sys.argv[2]
# op: (cases per element size, element sizes, extra arguments)
SWEEPS = {"transpose": (14, [1, 2, 4, 8, 16], ["--no-clblast"]), "gemv": (15, [4], [])}
FAILURES = []


def check(condition, what):
    if not condition:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)


def sweep(op, cases, sizes, extra, folder):
    path = os.path.join(folder, op + ".json")
    env = dict(os.environ, TAILOR_BENCH_DEVICE="cpu")
    done = subprocess.run([TOOL, "bench", "--sweep", op, "--quick", "--json", path] + extra, env=env,
                          capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    if done.returncode != 0 and "no OpenCL device matches" in out:
        print("no CPU device: skipped")
        sys.exit(77)
    check(done.returncode == 0, f"{op}: exit status 0, every case right:\n{out}")
    check("WRONG RESULT" not in out, f"{op}: no wrong result")
    summaries = [line for line in done.stdout.splitlines() if line.startswith("summary")]
    check(len(summaries) == len(sizes) + 1, f"{op}: a summary line per element size and one for all:\n{out}")
    with open(path) as f:
        report = json.load(f)
    rows = report["rows"]
    check(len(rows) == cases * len(sizes), f"{op}: {cases} rows per element size, got {len(rows)}")
    for row in rows:
        check(all(k in row for k in ("case", "element_bytes", "bytes", "fraction_of_aligned", "lda")),
              f"{op}: the sweep's fields in {row}")
        check(row["case"] in done.stdout, f"{op}: {row['case']} printed")
    references = [r for r in rows if r["reference"]]
    check([r["element_bytes"] for r in references] == sizes, f"{op}: one reference per element size")
    check(all(r["fraction_of_aligned"] == 1 for r in references), f"{op}: references at 100%")
    check(report["sweep"]["op"] == op and report["sweep"]["quick"], f"{op}: the sweep's description")
    summary = report["summary"]
    check(sorted(summary) == sorted([str(e) for e in sizes] + ["all"]), f"{op}: summary groups {sorted(summary)}")
    check(summary["all"]["cases"] == len(rows) - len(sizes), f"{op}: the summary leaves the references out")
    check(summary["all"]["min_fraction_of_aligned"] <= summary["all"]["median_fraction_of_aligned"],
          f"{op}: min <= median")
    check("large" in summary["all"], f"{op}: the large cases' summary")
    dry = subprocess.run([sys.executable, REFERENCE, path, "--dry-run"], capture_output=True, text=True,
                         timeout=60)
    check(dry.returncode == 0 and f"{len(rows)} cases" in dry.stdout,
          f"{op}: torch_sweep_reference.py --dry-run reads the JSON:\n{dry.stdout}{dry.stderr}")


def main():
    with tempfile.TemporaryDirectory() as folder:
        for op, (cases, sizes, extra) in SWEEPS.items():
            sweep(op, cases, sizes, extra, folder)
    print(f"{len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
