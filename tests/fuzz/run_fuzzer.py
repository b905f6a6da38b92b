#!/usr/bin/env python3
"""Fuzz the cache-entry reader for a bounded time, seeded with real entries.

The seeds: entries a real run stores (cache_client on the first OpenCL
device, if there is one), an entry of the format written here, and a few
broken files. TAILOR_FUZZ_SECONDS (default 20) sets the time; longer on
request. Any crash or sanitizer report fails.

usage: run_fuzzer.py FUZZER CACHE_CLIENT
"""
import glob
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile


def entry(key, payload):
    header = b'TAILORBC' + struct.pack('<IIQ', 1, len(key), len(payload))
    return header + hashlib.sha256(key + payload).digest() + key + payload


def main():
    fuzzer, client = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    seconds = os.environ.get('TAILOR_FUZZ_SECONDS', '20')
    with tempfile.TemporaryDirectory(prefix='tailor-fuzz-corpus-') as work:
        corpus = os.path.join(work, 'corpus')
        cache = os.path.join(work, 'cache')
        os.makedirs(corpus)
        env = dict(os.environ, TAILOR_CACHE_DIR=cache)
        subprocess.run([client, 'sum', 'max'], env=env, capture_output=True, timeout=300)
        real = glob.glob(os.path.join(cache, '*.bin'))
        for i, path in enumerate(real):
            shutil.copy(path, os.path.join(corpus, 'real-%d' % i))
        seeds = {
            'made': entry(b'tailor fuzz key', b'binary'),
            'other-key': entry(b'another key', b'binary'),
            'empty': b'',
            'magic': b'TAILORBC',
            'header-only': entry(b'', b'')[:56],
        }
        for name, data in seeds.items():
            with open(os.path.join(corpus, name), 'wb') as f:
                f.write(data)
        print('%d real entries and %d made seeds; fuzzing for %s s' % (len(real), len(seeds), seconds))
        sys.stdout.flush()
        result = subprocess.run([fuzzer, '-max_total_time=' + seconds, '-max_len=262144',
                                 '-print_final_stats=1', corpus], cwd=work)
        return result.returncode


if __name__ == '__main__':
    sys.exit(main())
