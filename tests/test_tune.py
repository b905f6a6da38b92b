#!/usr/bin/env python3
"""tailor tune on the CPU device, with small budgets, through the CLI: a
tuned value reaches the next process (show, explain); corrupt, truncated,
foreign and world-writable records are ignored with a note and nothing
breaks; export and import; two processes tuning at once leave one valid
record; candidates that fail to build, fail to launch or give wrong results
(made so by the OpenCL shim for one value each) are rejected and never
stored.

usage: test_tune.py TAILOR_TOOL OPENCL_SHIM"""
import json
import os
import stat
import subprocess
import sys
import tempfile

TOOL, SHIM = sys.argv[1], sys.argv[2]
FAILURES = []
SHAPE = ["--op", "reduce", "--shape", "reduce:100003", "--seed", "7"]


def check(condition, what):
    if not condition:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)


def run(args, cache, extra_env=None, timeout=600):
    env = dict(os.environ, TAILOR_CACHE_DIR=cache, TAILOR_BENCH_DEVICE="cpu")
    for name in ("TAILOR_PROFILE", "TAILOR_TUNE", "TAILOR_TUNED", "TAILOR_CACHE"):
        env.pop(name, None)
    env.update(extra_env or {})
    done = subprocess.run([TOOL] + args, env=env, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


def record_files(cache):
    return sorted(n for n in os.listdir(cache) if n.startswith("tuning-") and n.endswith(".json"))


def show(cache):
    code, out = run(["tune", "--show"], cache)
    check(code == 0, "tune --show exits 0:\n" + out)
    return out


def in_use(cache):
    return "in use   yes" in show(cache)


def explain_tuned(cache):
    code, out = run(["explain", "--device", "cpu", "--op", "reduce", "--shape", "100003"], cache)
    check(code == 0, "explain works whatever the record:\n" + out)
    return " tuned" in out


def tune(cache, budget, extra=None, extra_env=None):
    return run(["tune"] + SHAPE + ["--budget", str(budget)] + (extra or []), cache, extra_env)


def main():
    with tempfile.TemporaryDirectory() as cache:
        code, out = tune(cache, 12, ["--json", os.path.join(cache, "run.json")])
        check(code == 0 and "record written to" in out, "a tuning run stores a record:\n" + out)
        with open(os.path.join(cache, "run.json")) as f:
            log = json.load(f)
        check(log["stored"] == 1 and log["tried"] > 0, "the run's JSON says what it did")
        records = record_files(cache)
        check(len(records) == 1, "one record file: %s" % records)
        path = os.path.join(cache, records[0])
        check(stat.S_IMODE(os.stat(path).st_mode) == 0o600, "the record is private")
        out = show(cache)
        check("in use   yes" in out and "REDUCE_" in out, "the next process uses it:\n" + out)
        check(explain_tuned(cache), "explain shows tuned values")

        exported = os.path.join(cache, "exported.json")
        code, out = run(["tune", "--export", exported], cache)
        check(code == 0, "export:\n" + out)
        with open(exported) as f:
            record = json.load(f)
        check(record["format"] == "tailor-tuning-record-1" and record["values"],
              "the export is a record: %s" % record)
        original = open(path, "rb").read()

        def restore():
            os.chmod(path, 0o600)
            with open(path, "wb") as f:
                f.write(original)
            check(in_use(cache), "the restored record is used again")

        # A value changed without its checksum.
        name = next(iter(record["values"]))
        text = original.decode()
        at = text.index('"%s":' % name) + len(name) + 3
        digit = text[at:].lstrip()[0]
        start = text.index(digit, at)
        with open(path, "w") as f:
            f.write(text[:start] + ("7" if digit != "7" else "3") + text[start + 1:])
        out = show(cache)
        check("in use   no" in out and "corrupt" in out, "a corrupt record is ignored:\n" + out)
        check(not explain_tuned(cache), "nothing is tuned with a corrupt record")
        restore()

        with open(path, "wb") as f:
            f.write(original[: len(original) // 2])
        out = show(cache)
        check("in use   no" in out and "malformed" in out, "a truncated record is ignored:\n" + out)
        restore()

        os.chmod(path, 0o666)
        out = show(cache)
        check("in use   no" in out and "untrusted" in out,
              "a world-writable record is ignored:\n" + out)
        restore()

        # A record of another identity (the generic profile's) in this one's place.
        code, out = tune(cache, 6, extra_env={"TAILOR_PROFILE": "generic"})
        check(code == 0, "tuning under the generic profile:\n" + out)
        others = [n for n in record_files(cache) if n != records[0]]
        check(len(others) == 1, "the generic profile has its own record: %s" % record_files(cache))
        if others:
            other = os.path.join(cache, others[0])
            code, out = run(["tune", "--import", other], cache)
            check(code != 0 and "this device is" in out, "import refuses another identity:\n" + out)
            with open(other, "rb") as f:
                foreign = f.read()
            with open(path, "wb") as f:
                f.write(foreign)
            out = show(cache)
            check("in use   no" in out and "foreign" in out, "a foreign record is ignored:\n" + out)
        code, out = run(["tune", "--import", exported], cache)
        check(code == 0 and in_use(cache), "import of the exported record:\n" + out)

        code, out = run(["tune", "--reset"], cache)
        check(code == 0 and not in_use(cache), "reset removes the record")

        # Two processes at once.
        env = dict(os.environ, TAILOR_CACHE_DIR=cache, TAILOR_BENCH_DEVICE="cpu")
        for name in ("TAILOR_PROFILE", "TAILOR_TUNE", "TAILOR_TUNED"):
            env.pop(name, None)
        both = [subprocess.Popen([TOOL, "tune"] + SHAPE + ["--budget", "8", "--seed", str(s)],
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                for s in (1, 2)]
        for p in both:
            out = p.communicate(timeout=600)[0].decode()
            check(p.returncode == 0, "concurrent tuning run:\n" + out)
        check(in_use(cache), "two runs at once leave a valid record")
        check(not [n for n in os.listdir(cache) if n.startswith(".tmp-")], "no temporary files left")

    # Values that fail to build, fail to launch, or give wrong results.
    faults = {
        "TAILOR_TEST_FAIL_BUILD": "-DREDUCE_CONTIGUOUS=0",
        "TAILOR_TEST_FAIL_LAUNCH": "-DREDUCE_VECTOR_BYTES=32",
        "TAILOR_TEST_SKIP_LAUNCH": "-DREDUCE_ONE_PASS=0",
        "LD_PRELOAD": SHIM,
        "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0",
    }
    with tempfile.TemporaryDirectory() as cache:
        log_path = os.path.join(cache, "faults.json")
        code, out = tune(cache, 40, ["--json", log_path], faults)
        check(code == 0, "tuning survives failing candidates:\n" + out)
        with open(log_path) as f:
            log = json.load(f)
        outcomes = {}
        for step in log["steps"]:
            outcomes.setdefault(step["outcome"], []).append(step["candidate"])
        for outcome, value in (("build-failed", "REDUCE_CONTIGUOUS=0"),
                               ("opencl-error", "REDUCE_VECTOR_BYTES=32"),
                               ("wrong-result", "REDUCE_ONE_PASS=0")):
            check(any(value in c for c in outcomes.get(outcome, [])),
                  "a candidate with %s is %s: %s" % (value, outcome, outcomes))
        code, out = run(["tune", "--export", "-"], cache)
        check(code == 0, "export after the fault run:\n" + out)
        values = json.loads(out)["values"] if code == 0 else {}
        check(values.get("REDUCE_CONTIGUOUS") != 0 and values.get("REDUCE_VECTOR_BYTES") != 32 and
              values.get("REDUCE_ONE_PASS") != 0, "no failing value is stored: %s" % values)

    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
