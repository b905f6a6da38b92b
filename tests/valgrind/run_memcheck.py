#!/usr/bin/env python3
"""Run a POCL test under valgrind's memcheck with full leak checks: any
memory error or leak (definite, indirect or possible) fails the test.

POCL compiles each kernel with LLVM for the CPU it sees, and under valgrind
it sees valgrind's virtual CPU, so a first run under memcheck would spend
minutes in LLVM. The test therefore runs once under valgrind's `none` tool
(fast, the same virtual CPU) to fill POCL's kernel cache, then under
memcheck with an empty tailor cache, so the memcheck run takes tailor's
build-from-source-and-store path; with --twice it runs under memcheck once
more, on the stored entries (the cache's load path).

usage: run_memcheck.py VALGRIND SUPPRESSIONS [--twice] TEST [ARGS...]
"""
import os
import subprocess
import sys
import tempfile

MEMCHECK = ['--tool=memcheck', '--leak-check=full', '--show-leak-kinds=definite,indirect,possible',
            '--errors-for-leak-kinds=definite,indirect,possible', '--error-exitcode=99', '--num-callers=40']


def run(command, env, label):
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
    if result.returncode not in (0, 77):
        print('%s: exit %d\n%s\n%s' % (label, result.returncode, result.stdout[-4000:], result.stderr[-30000:]))
    return result.returncode


def main():
    valgrind, suppressions = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    twice = rest[0] == '--twice'
    test = rest[1:] if twice else rest
    with tempfile.TemporaryDirectory(prefix='tailor-memcheck-') as scratch:
        env = {k: v for k, v in os.environ.items() if not k.startswith('TAILOR_')}
        env['TAILOR_CACHE_DIR'] = os.path.join(scratch, 'warm')
        status = run([valgrind, '--tool=none', '-q'] + test, env, 'warm-up under valgrind --tool=none')
        if status != 0:
            return status
        env['TAILOR_CACHE_DIR'] = os.path.join(scratch, 'checked')
        memcheck = [valgrind, '--suppressions=' + suppressions] + MEMCHECK + test
        for label in ['memcheck, empty cache', 'memcheck, cached'][:2 if twice else 1]:
            status = run(memcheck, env, label)
            if status != 0:
                return 1
            print(label + ': no error, no leak')
    return 0


if __name__ == '__main__':
    sys.exit(main())
