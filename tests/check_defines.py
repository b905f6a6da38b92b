#!/usr/bin/env python3
"""Every program's build options hold exactly the defines its source reads.

For each program of representative devices (as print_build_options prints
them), the source is preprocessed with clang's OpenCL front end, with
-Wundef -Werror: an identifier an #if reads that the options do not define
fails here, and one the code reads fails the crosscompile test. Then each -D
option is left out in turn: the preprocessing must then fail (-Wundef, or the
source's own #error) or give other text. An option whose absence changes
nothing is not read by that program, and fails the test.

usage: check_defines.py PRINT_BUILD_OPTIONS CLANG CL_DIR
"""
import concurrent.futures
import os
import shlex
import shutil
import subprocess
import sys

# Devices whose code paths differ: shfl.sync and shfl on NVIDIA; AMD wave64
# (volatile lockstep); Intel sub-groups; CPU; generic; and NVIDIA's hints.
DEVICES = {'nvidia-sm90', 'nvidia-sm35', 'amd-wave64-gfx906', 'intel-gpu', 'cpu-simd8', 'generic',
           'nvidia-sm90+hints-and-bands'}
TARGETS = {'nvptx': ['-target', 'nvptx64-nvidia-nvcl'],
           'amdgcn': ['-target', 'amdgcn-amd-amdhsa', '-nogpulib'],
           'spir': ['-target', 'spir64']}
# The device facts every program reads: prelude.cl stops with #error
# without them, so leaving one out proves nothing.
DEVICE_FACTS = ('-DDEVICE=', '-DCUDA_SM=', '-DLOCKSTEP=', '-DHAS_FP64=', '-DUSE_SUBGROUPS=')


def preprocess(clang, cl_dir, target, options, source):
    command = [clang, '-x', 'cl', '-E', '-P', '-Wundef', '-Werror', '-I', cl_dir, '-o', '-'] + target + \
        options + [os.path.join(cl_dir, source)]
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def check_line(args):
    clang, cl_dir, line = args
    device, family, _arch, _isa, program, source, options = line.split('\t')
    target = TARGETS[family]
    options = shlex.split(options)
    status, full, errors = preprocess(clang, cl_dir, target, options, source)
    if status != 0:
        return ['%s %s: the options miss what the source reads:\n%s' % (device, program, errors[-2000:])]
    problems = []
    for i, option in enumerate(options):
        if not option.startswith('-D') or option.startswith(DEVICE_FACTS):
            continue
        status, text, _ = preprocess(clang, cl_dir, target, options[:i] + options[i + 1:], source)
        if status == 0 and text == full:
            problems.append('%s %s: %s is passed but not read' % (device, program, option))
    return problems


def main():
    printer, clang, cl_dir = sys.argv[1:4]
    if not shutil.which(clang):
        print('SKIPPED: no clang (%s)' % clang)
        return 77
    lines = subprocess.run([printer], check=True, capture_output=True, text=True).stdout.splitlines()
    chosen = [l for l in lines if l.split('\t')[0] in DEVICES]
    missing = DEVICES - {l.split('\t')[0] for l in chosen}
    problems = ['no programs printed for %s' % d for d in sorted(missing)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for found in pool.map(check_line, [(clang, cl_dir, l) for l in chosen]):
            problems += found
    for p in problems:
        print(p)
    print('%d programs checked on %d devices, %d problems' % (len(chosen), len(DEVICES), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
