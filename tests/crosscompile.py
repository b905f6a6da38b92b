#!/usr/bin/env python3
"""Compile every kernel program for every device profile with clang's OpenCL
front end and back ends (NVPTX, AMDGCN, SPIR), so vendor paths that cannot
run here still cannot rot.

usage: crosscompile.py PRINT_BUILD_OPTIONS CLANG CL_DIR
"""
import shlex
import subprocess
import sys

printer, clang, cl_dir = sys.argv[1:4]

TARGETS = {
    'nvptx': lambda arch: ['-target', 'nvptx64-nvidia-nvcl', '-Xclang', '-target-cpu', '-Xclang', arch, '-S'],
    'amdgcn': lambda arch: ['-target', 'amdgcn-amd-amdhsa', '-nogpulib', '-mcpu=' + arch, '-c'],
    'spir': lambda arch: ['-target', 'spir64', '-emit-llvm', '-c'] + (
        ['-Dcl_intel_subgroups=1', '-Xclang', '-cl-ext=+cl_intel_subgroups'] if arch == 'intel-subgroups' else []),
}


def main():
    lines = subprocess.run([printer], check=True, capture_output=True, text=True).stdout.splitlines()
    failures = 0
    for line in lines:
        device, family, arch, program, source, options = line.split('\t')
        command = [clang, '-x', 'cl', '-Werror', '-include', 'opencl-c.h', '-I', cl_dir, '-o', '/dev/null']
        command += TARGETS[family](arch) + shlex.split(options) + [cl_dir + '/' + source]
        result = subprocess.run(command, capture_output=True, text=True)
        status = 'ok' if result.returncode == 0 else 'FAILED'
        print('%-20s %-16s %s' % (device, program, status))
        if result.returncode != 0:
            failures += 1
            print(' '.join(shlex.quote(c) for c in command))
            print(result.stderr)
    print('%d program builds, %d failed' % (len(lines), failures))
    return 1 if failures or not lines else 0


if __name__ == '__main__':
    sys.exit(main())
