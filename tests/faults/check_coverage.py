#!/usr/bin/env python3
"""Run the fault walk and check it failed every OpenCL entry point the library
imports (nm -u of the library's objects), so no call escapes the walk. The
tuner's objects (src/tune, tune_*.o) are left out: a tuning run is not
walked; the tune test fails its candidates' builds and launches instead.

The walk runs in as many parts, side by side, as the machine has cores (the
test's --part I/N: every N-th scenario), and their counts are added up.

usage: check_coverage.py NM LIBRARY TEST [ARGS...]
"""
import os
import re
import subprocess
import sys

ENTRY_POINT = re.compile(r'^\s+(cl\w+)\s+(\d+) calls\s+(\d+) failed', re.M)


def main():
    nm, library, test = sys.argv[1], sys.argv[2], sys.argv[3:]
    listing = subprocess.run([nm, '-u', library], check=True, capture_output=True, text=True).stdout
    # nm lists an archive object by object, each after a "name.o:" line.
    objects = re.split(r'^(\S+\.o):$', listing, flags=re.M)
    imported = set()
    for name, symbols in zip(objects[1::2], objects[2::2]):
        if not os.path.basename(name).startswith('tune_'):
            imported |= set(re.findall(r'\b(cl[A-Z]\w+)\b', symbols))
    parts = max(1, min(4, os.cpu_count() or 1))
    runs = [subprocess.Popen(test + ['--part', '%d/%d' % (i, parts)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for i in range(parts)]
    outputs = [run.communicate() for run in runs]
    codes = [run.returncode for run in runs]
    for i, (out, err) in enumerate(outputs):
        sys.stdout.write('--- part %d of %d (exit %d)\n%s' % (i, parts, codes[i], out))
        sys.stderr.write(err[-20000:])
    if all(code == 77 for code in codes):
        return 77
    called, failed = set(), set()
    for out, _ in outputs:
        for m in ENTRY_POINT.finditer(out):
            called.add(m.group(1))
            if int(m.group(3)) > 0:
                failed.add(m.group(1))
    missing = sorted(imported - failed)
    never_failed = sorted(called - failed)
    print('the library imports %d OpenCL entry points; the walk failed %d of them' %
          (len(imported), len(imported & failed)))
    if missing:
        print('never failed: ' + ', '.join(missing))
    if never_failed:
        print('called but never failed: ' + ', '.join(never_failed))
    return 1 if any(code != 0 for code in codes) or missing or never_failed else 0


if __name__ == '__main__':
    sys.exit(main())
