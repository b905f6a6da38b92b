#!/usr/bin/env python3
"""Which warp- or wavefront-level primitive each profile compiles to, read in
the generated PTX, GCN or SPIR text (the hardware that would run these paths
is not here, and oclgrind cannot emulate lockstep):

  NVIDIA, CUDA_SM >= 70   shfl.sync, no barrier inside the warp
  NVIDIA, CUDA_SM 30-69   shfl without .sync, no barrier
  NVIDIA, CUDA_SM < 30    volatile local memory, no shuffle, no barrier
  AMD                     LOCKSTEP = the wavefront (64 on GCN, 32 on RDNA),
                          volatile local memory (ds_*), no s_barrier
  Intel with sub-groups   the reduction calls sub_group_reduce_*
  CPU, generic            neither lockstep nor sub-groups

Each lockstep check builds tests/lockstep_probe.cl (one lockstep reduction)
and, as a control, the same probe exchanging through a barrier: the control
must show the barrier the lockstep build must not have. The profiles' real
reduction programs are checked for the same primitive.

usage: lockstep_selection.py PRINT_BUILD_OPTIONS CLANG CL_DIR PROBE
"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crosscompile  # noqa: E402

NVIDIA_BARRIER = re.compile(r'\bbar\.sync\b|\bbarrier\.sync\b|_Z7barrierj')
AMD_BARRIER = re.compile(r'\bs_barrier\b|_Z7barrierj')
SHFL_SYNC = re.compile(r'\bshfl\.sync\.')
SHFL_PLAIN = re.compile(r'\bshfl\.(?!sync)')
PTX_VOLATILE_SHARED = re.compile(r'\b(ld|st)\.volatile\.shared\.')
GCN_LOCAL = re.compile(r'\bds_(read|write|load|store)')
WAVEFRONT = {'gfx906': 64, 'gfx1030': 32}
DEVICE_FACTS = ('-cl-std=', '-DDEVICE=', '-DCUDA_SM=', '-DLOCKSTEP=', '-DHAS_FP64=', '-DUSE_SUBGROUPS=')


def define(line, name):
    for option in line.options:
        if option.startswith('-D%s=' % name):
            return option.split('=', 1)[1]
    raise ValueError('%s %s: no -D%s' % (line.device, line.program, name))


class Compiler:
    def __init__(self, clang, cl_dir, workdir):
        self.clang, self.cl_dir, self.workdir = clang, cl_dir, workdir
        self.cpus = crosscompile.nvptx_cpus(clang)
        self.libclc = crosscompile.libclc_nvptx()
        self.rocm = crosscompile.rocm_bitcode_dir()
        self.amd_clang = crosscompile.linking_clang(clang, self.rocm, workdir) if self.rocm else None

    def text(self, line, options, source):
        """Assembly (LLVM IR for SPIR) of source built as line's device would
        build it; with the built-in libraries linked where they are here, so
        that barrier() shows as the instruction, else as the call."""
        output = os.path.join(self.workdir, 'out.s')
        clang, target = self.clang, crosscompile.unlinked_target(line, self.cpus)
        if line.family == 'nvptx' and self.libclc:
            target = crosscompile.nvptx_linked_target(self.libclc, crosscompile.clang_cpu(line.arch, self.cpus))
        elif line.family == 'amdgcn' and self.amd_clang:
            clang, target = self.amd_clang, crosscompile.amdgcn_linked_target(line.arch, self.rocm)
        elif line.family == 'spir':
            target += ['-emit-llvm']
        command = [clang] + crosscompile.OPENCL + ['-O2', '-I', self.cl_dir, '-S', '-o', output] + target
        result = crosscompile.run(command + options + [source])
        if result.returncode != 0:
            raise RuntimeError('%s\n%s' % (' '.join(command + options + [source]), result.stderr))
        with open(output) as f:
            return f.read()


def device_facts(line):
    """The options the probe reads: the device facts prelude.cl needs."""
    return [o for o in line.options if o.startswith(DEVICE_FACTS)]


def check_device(compiler, line, probe):
    """The problems found with line's device (its reduce_sum_f32 line)."""
    problems = []
    lockstep = int(define(line, 'LOCKSTEP'))
    subgroups = int(define(line, 'USE_SUBGROUPS'))
    reduce_text = compiler.text(line, line.options, os.path.join(compiler.cl_dir, line.source))
    if line.family in ('nvptx', 'amdgcn'):
        expected = 32 if line.family == 'nvptx' else WAVEFRONT[line.arch]
        if lockstep != expected or subgroups:
            return ['LOCKSTEP=%d USE_SUBGROUPS=%d, expected LOCKSTEP=%d and no sub-groups'
                    % (lockstep, subgroups, expected)]
        facts = device_facts(line)
        lockstep_text = compiler.text(line, facts + ['-DPROBE_CONTROL=0'], probe)
        control_text = compiler.text(line, facts + ['-DPROBE_CONTROL=1'], probe)
        barrier = NVIDIA_BARRIER if line.family == 'nvptx' else AMD_BARRIER
        if not barrier.search(control_text):
            problems.append('the control probe shows no barrier: the check cannot see one')
        if barrier.search(lockstep_text):
            problems.append('a barrier inside the lockstep reduction: %s' % barrier.search(lockstep_text)[0])
        if line.family == 'nvptx':
            sm = int(define(line, 'CUDA_SM'))
            if sm >= 70:
                wanted, unwanted = [SHFL_SYNC], [SHFL_PLAIN, PTX_VOLATILE_SHARED]
            elif sm >= 30:
                wanted, unwanted = [SHFL_PLAIN], [SHFL_SYNC, PTX_VOLATILE_SHARED]
            else:
                wanted, unwanted = [PTX_VOLATILE_SHARED], [SHFL_SYNC, SHFL_PLAIN]
            for pattern in wanted:
                for name, text in (('probe', lockstep_text), ('reduce_sum_f32', reduce_text)):
                    if not pattern.search(text):
                        problems.append('%s: no %s for CUDA_SM=%d' % (name, pattern.pattern, sm))
            for pattern in unwanted:
                for name, text in (('probe', lockstep_text), ('reduce_sum_f32', reduce_text)):
                    if pattern.search(text):
                        problems.append('%s: %s for CUDA_SM=%d' % (name, pattern.search(text)[0], sm))
        elif not GCN_LOCAL.search(lockstep_text):
            problems.append('probe: no local-memory (ds_*) exchange')
    else:
        calls = 'sub_group_reduce_add' in reduce_text
        wanted = line.arch == 'intel-subgroups'
        if lockstep or subgroups != wanted or calls != wanted:
            problems.append('LOCKSTEP=%d USE_SUBGROUPS=%d, sub_group_reduce_add called: %s; expected %s'
                            % (lockstep, subgroups, calls, 'sub-groups' if wanted else 'neither'))
    return problems


def main():
    printer, clang, cl_dir, probe = sys.argv[1:5]
    if not shutil.which(clang):
        print('SKIPPED: no clang (%s)' % clang)
        return crosscompile.SKIP
    lines = [crosscompile.Line(t) for t in crosscompile.run([printer], check=True).stdout.splitlines()]
    chosen = [l for l in lines if l.program == 'reduce_sum_f32' and '+' not in l.device]
    failures = 0
    with tempfile.TemporaryDirectory() as workdir:
        compiler = Compiler(clang, cl_dir, workdir)
        print('NVIDIA built-ins: %s; AMD: %s' % (
            compiler.libclc or 'none (barrier() seen as a call)',
            '%s with %s' % (compiler.amd_clang, compiler.rocm) if compiler.amd_clang
            else 'no device libraries (barrier() seen as a call)'))
        for line in chosen:
            problems = check_device(compiler, line, os.path.abspath(probe))
            print('%-24s %-16s %s' % (line.device, line.arch, 'ok' if not problems else 'FAILED'))
            for problem in problems:
                print('    ' + problem)
            failures += bool(problems)
    print('%d devices, %d failed' % (len(chosen), failures))
    return 1 if failures or not chosen else 0


if __name__ == '__main__':
    sys.exit(main())
