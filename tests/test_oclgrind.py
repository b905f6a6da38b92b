#!/usr/bin/env python3
"""Run a device test under Oclgrind with data-race, uninitialized-value and
API checks (out-of-bounds checks are always on). Oclgrind reports problems
without failing the program, so any line in its log fails the test.

With --local-mem-size and --max-wgsize (passed to Oclgrind), the simulated
device is that small: the test then runs on the smaller shapes each
operation settles on.

usage: test_oclgrind.py OCLGRIND [--local-mem-size BYTES] [--max-wgsize N] TEST [ARGS...]
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    oclgrind, test = sys.argv[1], sys.argv[2:]
    device = []
    while test and test[0] in ('--local-mem-size', '--max-wgsize'):
        device += test[:2]
        test = test[2:]
    if not shutil.which(oclgrind):
        print('SKIPPED: no oclgrind (%s)' % oclgrind)
        return 77
    with tempfile.TemporaryDirectory(prefix='tailor-oclgrind-') as scratch:
        log = os.path.join(scratch, 'oclgrind.log')
        env = {k: v for k, v in os.environ.items() if not k.startswith('TAILOR_')}
        env['TAILOR_CACHE'] = 'off'
        command = [oclgrind, '--data-races', '--uninitialized', '--check-api', '--log', log] + device + test
        result = subprocess.run(command, env=env, timeout=1800)
        report = open(log).read() if os.path.exists(log) else ''
    if report.strip():
        print('oclgrind reported:\n' + report[:20000])
    if result.returncode == 77:
        return 77
    if result.returncode != 0:
        print('the test failed under oclgrind (exit %d)' % result.returncode)
    return 1 if result.returncode != 0 or report.strip() else 0


if __name__ == '__main__':
    sys.exit(main())
