#!/usr/bin/env python3
"""Run the fault walk and check it failed every OpenCL entry point the library
imports (nm -u of the library's objects), so no call escapes the walk. The
tuner's objects (src/tune, tune_*.o) are left out: a tuning run is not
walked; the tune test fails its candidates' builds and launches instead.

usage: check_coverage.py NM LIBRARY TEST [ARGS...]
"""
import os
import re
import subprocess
import sys


def main():
    nm, library, test = sys.argv[1], sys.argv[2], sys.argv[3:]
    listing = subprocess.run([nm, '-u', library], check=True, capture_output=True, text=True).stdout
    # nm lists an archive object by object, each after a "name.o:" line.
    objects = re.split(r'^(\S+\.o):$', listing, flags=re.M)
    imported = set()
    for name, symbols in zip(objects[1::2], objects[2::2]):
        if not os.path.basename(name).startswith('tune_'):
            imported |= set(re.findall(r'\b(cl[A-Z]\w+)\b', symbols))
    run = subprocess.run(test, capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr[-20000:])
    if run.returncode == 77:
        return 77
    failed = {m.group(1) for m in re.finditer(r'^\s+(cl\w+)\s+\d+ calls\s+(\d+) failed', run.stdout, re.M)
              if int(m.group(2)) > 0}
    missing = sorted(imported - failed)
    print('the library imports %d OpenCL entry points; the walk failed %d of them' %
          (len(imported), len(imported & failed)))
    if missing:
        print('never failed: ' + ', '.join(missing))
    return 1 if run.returncode != 0 or missing else 0


if __name__ == '__main__':
    sys.exit(main())
