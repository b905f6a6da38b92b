#!/usr/bin/env python3
"""Build every kernel program for every device profile, as far as the tools
on this machine can take it (print_build_options prints one line per program
and profile):

  frontend  clang's OpenCL front end for every line, pedantic, so that
            what clang accepts as an extension (variadic macros, which
            NVIDIA's OpenCL C 1.2 compiler refuses) fails here: SPIR lines
            through the code generator too; NVPTX and AMDGCN lines (no
            device libraries) through the front end only, for their targets
            (their code generators, at seconds a program, are the ptxas and
            amdgcn tiers' part).
  ptxas     each NVIDIA line compiled to PTX with libclc's built-ins linked
            in, its .version and .target set to the device's driver PTX ISA
            and SM, then assembled by the CUDA toolkit's ptxas for that SM
            (or, below the oldest SM the toolkit supports, for that one). A
            warning fails too, but those of shfl without .sync in PTX for
            SMs below 70.
  amdgcn    each AMD line compiled and linked into a code object with the
            ROCm device libraries, for its GFX target.

Any compiler, assembler or linker error fails the tier. A tier whose tools
are missing exits 77 (skipped) and says what it looked for.

The ptxas tier takes the NVIDIA lines of some SMs only with --sm N,N,...
and every other SM's with --other-sm N,N,... (every distinct program takes
seconds of clang and ptxas; over 500 of them take most of an hour of CPU).

usage: crosscompile.py TIER [--sm LIST | --other-sm LIST] PRINT_BUILD_OPTIONS CLANG CL_DIR
"""
import concurrent.futures
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
OPENCL = ['-x', 'cl', '-Werror', '-include', 'opencl-c.h']
LIBCLC_NVPTX = ['/usr/lib/clc/nvptx64--nvidiacl.bc'] + sorted(glob.glob('/usr/lib/llvm-*/lib/clc/nvptx64--nvidiacl.bc'))
ROCM_BITCODE = sorted(glob.glob('/usr/lib/*/amdgcn/bitcode')) + ['/usr/lib/amdgcn/bitcode', '/opt/rocm/amdgcn/bitcode']


class Line:
    def __init__(self, text):
        (self.device, self.family, self.arch, self.isa, self.program, self.source,
         options) = text.split('\t')
        self.options = shlex.split(options)


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def sm_number(arch):
    return int(arch[len('sm_'):])


def nvptx_cpus(clang):
    """The sm_NN the clang's NVPTX back end knows, ascending."""
    result = run([clang, '--target=nvptx64', '-print-supported-cpus'])
    return sorted({int(n) for n in re.findall(r'\bsm_(\d+)\b', result.stdout + result.stderr)})


def clang_cpu(arch, known):
    """The newest SM clang knows that the device also has: clang's generated
    code is then valid for the device; the kernels' own PTX is chosen by
    CUDA_SM in the options, not by this."""
    usable = [n for n in known if n <= sm_number(arch)]
    return 'sm_%d' % (usable[-1] if usable else known[0])


def unlinked_target(line, cpus):
    """clang's target options for line's device, without built-in libraries
    (NVPTX, AMDGCN) or as SPIR."""
    if line.family == 'nvptx':
        return ['-target', 'nvptx64-nvidia-nvcl', '-Xclang', '-target-cpu', '-Xclang', clang_cpu(line.arch, cpus)]
    if line.family == 'amdgcn':
        return ['-target', 'amdgcn-amd-amdhsa', '-nogpulib', '-mcpu=' + line.arch]
    target = ['-target', 'spir64']
    if line.arch == 'intel-subgroups':
        target += ['-Dcl_intel_subgroups=1', '-Xclang', '-cl-ext=+cl_intel_subgroups']
    return target


def nvptx_linked_target(libclc, cpu):
    """NVPTX with libclc's built-ins linked in (libclc's own triple)."""
    return ['-target', 'nvptx64-unknown-nvidiacl', '-Xclang', '-target-cpu', '-Xclang', cpu,
            '-Xclang', '-mlink-builtin-bitcode', '-Xclang', libclc]


def amdgcn_linked_target(arch, bitcode):
    """AMDGCN linked with the ROCm device libraries in `bitcode`."""
    return ['-target', 'amdgcn-amd-amdhsa', '-mcpu=' + arch, '--rocm-device-lib-path=' + bitcode]


def frontend(tools, line, workdir):
    clang, cl_dir, cpus = tools
    mode = {'nvptx': ['-fsyntax-only'], 'amdgcn': ['-fsyntax-only'], 'spir': ['-emit-llvm', '-c']}[line.family]
    command = [clang] + OPENCL + ['-Wpedantic', '-I', cl_dir, '-o', os.devnull] + unlinked_target(line, cpus) + mode + \
        line.options + [os.path.join(cl_dir, line.source)]
    result = run(command)
    return result.returncode == 0, command, result.stderr


def find_ptxas():
    found = shutil.which('ptxas')
    for root in [os.environ.get('CUDA_PATH'), os.environ.get('CUDA_HOME'), '/usr/local/cuda']:
        if not found and root and os.access(os.path.join(root, 'bin', 'ptxas'), os.X_OK):
            found = os.path.join(root, 'bin', 'ptxas')
    return found


def ptxas_targets(ptxas):
    """The real sm_NN this ptxas assembles for, ascending."""
    result = run([ptxas, '--help'])
    return sorted({int(n) for n in re.findall(r"'sm_(\d+)'", result.stdout)})


def assemble_arch(arch, supported):
    """The SM to assemble for: the device's own where the toolkit has it, else
    the oldest newer one it has (PTX for sm_XY assembles for any sm_MN >= XY)."""
    newer = [n for n in supported if n >= sm_number(arch)]
    return 'sm_%d' % (newer[0] if newer else supported[-1])


# The warnings the sm_30-69 lockstep path's shfl draws, correct on the parts
# it is built for: unpredictable on sm_70+ (it is assembled for a newer SM
# here), deprecated from PTX ISA 6.0 (the drivers for those parts take it).
OLDER_SM_WARNING = re.compile(r"warning\s*: Instruction 'shfl' without '\.sync' (may produce unpredictable "
                              r"results on sm_70 and later architectures|is deprecated since PTX ISA version 6\.0)")


def unexpected_warnings(output, device_arch, assembled_arch):
    warnings = [l for l in output.splitlines() if 'warning' in l]
    if sm_number(device_arch) < 70:
        warnings = [l for l in warnings if not OLDER_SM_WARNING.search(l)]
    return warnings


def retarget(ptx, arch, isa):
    """PTX as the device's driver would be handed it: its SM, its PTX ISA."""
    ptx, versions = re.subn(r'^\.version\s+\S+', '.version ' + isa, ptx, count=1, flags=re.M)
    ptx, targets = re.subn(r'^\.target\s+sm_\d+', '.target ' + arch, ptx, count=1, flags=re.M)
    if versions != 1 or targets != 1:
        raise ValueError('no .version or .target line in the PTX')
    return ptx


def ptxas_assemble(tools, line, workdir):
    clang, cl_dir, cpus, libclc, ptxas, supported = tools
    ptx_path = os.path.join(workdir, line.device + '.' + line.program + '.ptx')
    command = [clang] + OPENCL + ['-Wpedantic', '-I', cl_dir] + nvptx_linked_target(libclc, clang_cpu(line.arch, cpus)) + \
        ['-O2', '-S', '-o', ptx_path] + line.options + [os.path.join(cl_dir, line.source)]
    result = run(command)
    if result.returncode != 0:
        return False, command, result.stderr
    with open(ptx_path) as f:
        ptx = retarget(f.read(), line.arch, line.isa)
    with open(ptx_path, 'w') as f:
        f.write(ptx)
    assembled_arch = assemble_arch(line.arch, supported)
    command = [ptxas, '-arch=' + assembled_arch, '-o', os.devnull, ptx_path]
    result = run(command)
    os.remove(ptx_path)
    output = result.stdout + result.stderr
    return (result.returncode == 0 and not unexpected_warnings(output, line.arch, assembled_arch),
            command, output)


def libclc_nvptx():
    return next((p for p in LIBCLC_NVPTX if os.path.isfile(p)), None)


def rocm_bitcode_dir():
    for path in ROCM_BITCODE:
        if os.path.isfile(os.path.join(path, 'ocml.bc')):
            return path
    return None


def linking_clang(clang, bitcode, workdir):
    """A clang that reads this rocm-device-libs' bitcode (the libraries are
    built by one LLVM release; an older clang cannot read them)."""
    probe = os.path.join(workdir, 'probe.cl')
    with open(probe, 'w') as f:
        f.write('kernel void probe(global float *x) { x[get_global_id(0)] = sqrt(x[0]); }\n')
    candidates = [clang] + ['clang-%d' % v for v in range(30, 14, -1)]
    for candidate in candidates:
        path = shutil.which(candidate)
        if not path:
            continue
        result = run([path] + OPENCL + amdgcn_linked_target('gfx906', bitcode) +
                     ['-o', os.path.join(workdir, 'probe.co'), probe])
        if result.returncode == 0:
            return path
    return None


def amdgcn_link(tools, line, workdir):
    clang, cl_dir, bitcode = tools
    command = [clang] + OPENCL + ['-Wpedantic', '-I', cl_dir] + amdgcn_linked_target(line.arch, bitcode) + \
        ['-o', os.path.join(workdir, line.device + '.' + line.program + '.co')] + line.options + \
        [os.path.join(cl_dir, line.source)]
    result = run(command)
    return result.returncode == 0, command, result.stderr


def tier_setup(tier, clang, cl_dir, workdir):
    """(families, build function, its tools) or (None, reason to skip)."""
    if not shutil.which(clang):
        return None, 'no clang (%s)' % clang
    if tier == 'frontend':
        return ({'nvptx', 'amdgcn', 'spir'}, frontend, (clang, cl_dir, nvptx_cpus(clang))), None
    if tier == 'ptxas':
        libclc = libclc_nvptx()
        ptxas = find_ptxas()
        if not libclc:
            return None, 'no libclc NVPTX built-ins (libclc-NN): looked for %s' % ', '.join(LIBCLC_NVPTX)
        if not ptxas:
            return None, 'no ptxas: looked in PATH, $CUDA_PATH/bin, $CUDA_HOME/bin, /usr/local/cuda/bin'
        supported = ptxas_targets(ptxas)
        if not supported:
            return None, '%s lists no sm_NN targets' % ptxas
        print('ptxas %s assembles for %s; libclc %s' % (ptxas, ' '.join('sm_%d' % n for n in supported), libclc))
        return ({'nvptx'}, ptxas_assemble, (clang, cl_dir, nvptx_cpus(clang), libclc, ptxas, supported)), None
    if tier == 'amdgcn':
        bitcode = rocm_bitcode_dir()
        if not bitcode:
            return None, 'no ROCm device libraries (rocm-device-libs): looked in %s' % ', '.join(ROCM_BITCODE)
        linker = linking_clang(clang, bitcode, workdir)
        if not linker:
            return None, 'no clang that reads and links %s (clang, clang-30 .. clang-15, with ld.lld)' % bitcode
        print('linking with %s and %s' % (linker, bitcode))
        return ({'amdgcn'}, amdgcn_link, (linker, cl_dir, bitcode)), None
    raise SystemExit('unknown tier ' + tier)


def build_key(tier, line):
    """What a build reads: lines of different profiles that agree on it (the
    options hold only the defines a program reads) are one build."""
    return (line.family, line.arch, line.isa if tier == 'ptxas' else '', line.source, tuple(line.options))


def sm_selection(args):
    """(the arguments left, a test of an NVIDIA line's SM: None for every SM)."""
    if len(args) > 1 and args[0] in ('--sm', '--other-sm'):
        sms = {'sm_' + n.strip() for n in args[1].split(',')}
        inside = args[0] == '--sm'
        return args[2:], lambda arch: (arch in sms) == inside
    return args, None


def main():
    tier = sys.argv[1]
    args, sm_chosen = sm_selection(sys.argv[2:])
    if sm_chosen and tier != 'ptxas':
        raise SystemExit('--sm and --other-sm choose the lines of the ptxas tier only')
    printer, clang, cl_dir = args[:3]
    lines = [Line(t) for t in run([printer], check=True).stdout.splitlines()]
    if sm_chosen:
        lines = [l for l in lines if l.family != 'nvptx' or sm_chosen(l.arch)]
    with tempfile.TemporaryDirectory() as workdir:
        setup, reason = tier_setup(tier, clang, cl_dir, workdir)
        if not setup:
            print('SKIPPED: %s' % reason)
            return SKIP
        families, build, tools = setup
        chosen = [l for l in lines if l.family in families]
        distinct = {}
        for line in chosen:
            distinct.setdefault(build_key(tier, line), line)
        failures = 0
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            built = dict(zip(distinct, pool.map(lambda l: build(tools, l, workdir), distinct.values())))
        for line in chosen:
            key = build_key(tier, line)
            ok, command, messages = built[key]
            same = distinct[key]
            note = '' if same is line else ' (the build of %s)' % same.device
            print('%-28s %-8s %-28s %s%s' % (line.device, line.arch, line.program, 'ok' if ok else 'FAILED', note))
            if not ok and same is line:
                failures += 1
                print(' '.join(shlex.quote(c) for c in command))
                print(messages)
    targets = sorted({l.arch for l in chosen})
    print('%s: %d program builds (%d distinct) for %s, %d failed' %
          (tier, len(chosen), len(distinct), ' '.join(targets), failures))
    return 1 if failures or not chosen else 0


if __name__ == '__main__':
    sys.exit(main())
