#!/usr/bin/env python3
"""doc/tuning-parameters.md is what `tailor params --markdown` prints from the
registry: a parameter added, removed or changed without the table fails here
(regenerate it with the command the table's first lines name).

usage: check_doc_params.py TAILOR DOC
"""
import difflib
import subprocess
import sys


def main():
    tool, doc = sys.argv[1:3]
    generated = subprocess.run([tool, 'params', '--markdown'], check=True, capture_output=True,
                               text=True).stdout.splitlines()
    written = open(doc, encoding='utf-8').read().splitlines()
    diff = list(difflib.unified_diff(written, generated, doc, 'tailor params --markdown', lineterm=''))
    print('\n'.join(diff) if diff else '%s matches the registry' % doc)
    return 1 if diff else 0


if __name__ == '__main__':
    sys.exit(main())
