#!/usr/bin/env python3
"""The on-disk binary cache, across processes.

Each scenario runs cache_client (one process: a handle, reductions, the
counters as JSON) against a cache directory prepared for it, and checks what
the counters and the directory say afterwards.

usage: test_cache.py CACHE_CLIENT OPENCL_SHIM
"""
import glob
import hashlib
import json
import os
import pwd
import shutil
import stat
import struct
import subprocess
import sys
import tempfile

CLIENT, SHIM = sys.argv[1], sys.argv[2]
NOBODY = 65534
failures = []
skipped = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print('FAIL: ' + message, file=sys.stderr)


def base_env(cache_dir):
    env = {k: v for k, v in os.environ.items()
           if k not in ('TAILOR_CACHE', 'TAILOR_PROFILE', 'TAILOR_TUNE', 'TAILOR_BUILD_OPTIONS',
                        'TAILOR_CACHE_MAX_BYTES', 'TAILOR_CACHE_DIR', 'LD_PRELOAD')}
    if cache_dir is not None:
        env['TAILOR_CACHE_DIR'] = cache_dir
    return env


def run(env, *ops, user=None):
    result = subprocess.run([CLIENT, *ops], env=env, capture_output=True, text=True, timeout=300,
                            user=user, group=user, extra_groups=[] if user else None)
    if result.returncode == 77:
        print('no OpenCL device: skipped', file=sys.stderr)
        sys.exit(77)
    lines = [line for line in result.stdout.splitlines() if line.startswith('{')]
    stats = json.loads(lines[-1]) if lines else {}
    stats['exit'] = result.returncode
    stats['stderr'] = result.stderr
    return stats


def entries(directory):
    return sorted(glob.glob(os.path.join(directory, '*.bin')))


def expect(stats, label, **wanted):
    check(stats.get('exit') == 0 and stats.get('ok') is True,
          '%s: the client failed (exit %s): %s' % (label, stats.get('exit'), stats.get('stderr', '')[-2000:]))
    for key, value in wanted.items():
        check(stats.get(key) == value, '%s: %s is %s, expected %s' % (label, key, stats.get(key), value))


def populated(directory, *ops):
    stats = run(base_env(directory), *ops)
    expect(stats, 'populating ' + directory, stores=len(ops) or 1)
    return entries(directory)


def scenario_store_then_load(root):
    directory = os.path.join(root, 'cache')
    first = run(base_env(directory))
    expect(first, 'first process', enabled=1, disk_misses=1, source_builds=1, stores=1, disk_hits=0)
    check(stat.S_IMODE(os.stat(directory).st_mode) == 0o700, 'the cache directory is not 0700')
    check(len(entries(directory)) == 1, 'one entry after the first process: %s' % entries(directory))
    second = run(base_env(directory))
    expect(second, 'second process', disk_hits=1, source_builds=0, disk_misses=0, bad_entries=0)


def damaged_entry(root, label, damage):
    directory = os.path.join(root, label.replace(' ', '_'))
    entry = populated(directory)[0]
    damage(entry, directory)
    stats = run(base_env(directory))
    expect(stats, label, bad_entries=1, source_builds=1, stores=1, disk_hits=0)
    check(len(entries(directory)) == 1, '%s: the rebuilt entry replaced the bad one' % label)
    again = run(base_env(directory))
    expect(again, label + ', then', disk_hits=1, source_builds=0)


def truncate(entry, _):
    size = os.path.getsize(entry)
    with open(entry, 'r+b') as f:
        f.truncate(size // 2)


def flip_byte(entry, _):
    with open(entry, 'r+b') as f:
        f.seek(os.path.getsize(entry) - 10)
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 0x40]))


def empty(entry, _):
    open(entry, 'wb').close()


def foreign(entry, _):
    with open(entry, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + bytes(200))


def other_key(entry, directory):
    other = os.path.join(directory, 'other')
    max_entry = populated(other, 'max')[0]
    shutil.copyfile(max_entry, entry)
    shutil.rmtree(other)


def read_key(entry):
    with open(entry, 'rb') as f:
        data = f.read()
    key_length = struct.unpack_from('<I', data, 12)[0]
    return data[56:56 + key_length]


def write_entry(path, key, payload):
    digest = hashlib.sha256(key + payload).digest()
    header = b'TAILORBC' + struct.pack('<IIQ', 1, len(key), len(payload)) + digest
    with open(path, 'wb') as f:
        f.write(header + key + payload)


def rejected_binary(entry, _):
    # A well-formed entry of the right key whose binary the driver refuses.
    write_entry(entry, read_key(entry), b'this is not a program binary' * 8)


def symbolic_link(entry, directory):
    target = os.path.join(directory, 'elsewhere')
    with open(target, 'w') as f:
        f.write('not to be touched')
    os.remove(entry)
    os.symlink(target, entry)


def other_owner(entry, _):
    os.chown(entry, NOBODY, NOBODY)


def scenario_driver_upgrade(root):
    directory = os.path.join(root, 'upgrade')
    populated(directory)
    env = base_env(directory)
    env['POCL_DRIVER_VERSION_OVERRIDE'] = '99.0-upgrade'
    stats = run(env)
    if stats.get('driver') != '99.0-upgrade':
        # This POCL has no override: present the same upgrade through the shim.
        env['LD_PRELOAD'] = SHIM
        env['TAILOR_TEST_DRIVER_VERSION'] = '99.0-upgrade'
        env['ASAN_OPTIONS'] = 'verify_asan_link_order=0'
        stats = run(env)
    check(stats.get('driver') == '99.0-upgrade', 'the simulated driver version took no effect')
    expect(stats, 'driver upgrade', disk_misses=1, disk_hits=0, bad_entries=0, source_builds=1, stores=1)
    check(len(entries(directory)) == 2, 'the upgrade keyed a new entry')


def scenario_missing_directory(root):
    directory = os.path.join(root, 'missing', 'nested', 'tailor')
    stats = run(base_env(directory))
    expect(stats, 'missing directory', enabled=1, stores=1)
    check(os.path.isdir(directory) and stat.S_IMODE(os.stat(directory).st_mode) == 0o700,
          'the missing directory was created 0700')


def scenario_file_instead_of_directory(root):
    path = os.path.join(root, 'a_file')
    with open(path, 'w') as f:
        f.write('in the way')
    stats = run(base_env(path))
    expect(stats, 'a file where the directory should be', enabled=0, source_builds=1)


def scenario_environment_order(root):
    xdg = os.path.join(root, 'xdg')
    env = base_env(None)
    env['XDG_CACHE_HOME'] = xdg
    stats = run(env)
    expect(stats, 'XDG_CACHE_HOME', enabled=1, dir=os.path.join(xdg, 'tailor'))
    env['XDG_CACHE_HOME'] = 'relative/path'
    env['HOME'] = os.path.join(root, 'home')
    stats = run(env)
    expect(stats, 'relative XDG_CACHE_HOME falls back to HOME', dir=os.path.join(root, 'home', '.cache', 'tailor'))
    del env['XDG_CACHE_HOME']
    del env['HOME']
    stats = run(env)
    passwd_home = pwd.getpwuid(os.geteuid()).pw_dir
    check(stats.get('exit') == 0 and stats.get('ok') is True, 'HOME and XDG_CACHE_HOME unset: the client failed')
    check(stats.get('dir') == os.path.join(passwd_home, '.cache', 'tailor') or stats.get('enabled') == 0,
          'HOME unset: the cache is %s, not under the passwd home %s' % (stats.get('dir'), passwd_home))


def scenario_untrusted_directory(root):
    directory = os.path.join(root, 'shared')
    os.makedirs(directory)
    os.chmod(directory, 0o777)
    stats = run(base_env(directory))
    expect(stats, 'a directory others can write', enabled=0, source_builds=1)
    check('writable' in stats.get('note', ''), 'the note says why: %r' % stats.get('note'))
    check(entries(directory) == [], 'nothing was written to an untrusted directory')


def scenario_read_only_directory(root):
    directory = os.path.join(root, 'readonly')
    user = None
    env = base_env(directory)
    if os.geteuid() == 0:
        # Mode bits do not stop root: run the processes as nobody.
        user = NOBODY
        home = os.path.join(root, 'nobody_home')
        os.makedirs(home)
        os.chown(home, NOBODY, NOBODY)
        os.chmod(root, 0o755)
        env['HOME'] = home
        env['POCL_CACHE_DIR'] = os.path.join(home, 'pocl')
        os.makedirs(directory)
        os.chown(directory, NOBODY, NOBODY)
        os.chmod(directory, 0o700)
    first = run(env, user=user)
    if first.get('exit') != 0 and user is not None:
        skipped.append('read-only directory (nobody cannot run the client here: %s)' % first.get('stderr', '')[-300:])
        return
    expect(first, 'populating the read-only directory', stores=1)
    os.chmod(directory, 0o500)
    stats = run(env, 'sum', 'max', user=user)
    expect(stats, 'read-only directory', enabled=1, disk_hits=1, source_builds=1, store_failures=1, stores=0)
    os.chmod(directory, 0o700)


def scenario_cache_off(root):
    directory = os.path.join(root, 'off')
    env = base_env(directory)
    env['TAILOR_CACHE'] = 'off'
    stats = run(env)
    expect(stats, 'TAILOR_CACHE=off', enabled=0, source_builds=1, stores=0)
    check(not os.path.exists(directory), 'TAILOR_CACHE=off created the directory')


def scenario_size_cap(root):
    directory = os.path.join(root, 'capped')
    size = os.path.getsize(populated(directory)[0])
    shutil.rmtree(directory)
    env = base_env(directory)
    env['TAILOR_CACHE_MAX_BYTES'] = str(size + size // 2)
    stats = run(env, 'sum', 'max')
    expect(stats, 'size cap', stores=2, evictions=1)
    remaining = entries(directory)
    check(len(remaining) == 1, 'one entry fits the cap: %s' % remaining)
    max_key = b'program reduce_max_f32'
    check(remaining and max_key in read_key(remaining[0]), 'the least recently used entry went')


def scenario_stale_temporaries(root):
    directory = os.path.join(root, 'temps')
    populated(directory)
    dead = os.path.join(directory, '.tmp-0123456789abcdef-999999999-0')
    alive = os.path.join(directory, '.tmp-0123456789abcdef-%d-0' % os.getpid())
    for path in (dead, alive):
        with open(path, 'wb') as f:
            f.write(b'half an entry')
    expect(run(base_env(directory)), 'stale temporaries', disk_hits=1)
    check(not os.path.exists(dead), "a killed writer's temporary file was not removed")
    check(os.path.exists(alive), "a live writer's temporary file was removed")


def scenario_concurrent_start(root):
    directory = os.path.join(root, 'concurrent')
    env = base_env(directory)
    processes = [subprocess.Popen([CLIENT], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(8)]
    for i, process in enumerate(processes):
        out, err = process.communicate(timeout=300)
        lines = [line for line in out.splitlines() if line.startswith('{')]
        stats = json.loads(lines[-1]) if lines else {}
        check(process.returncode == 0 and stats.get('ok') is True,
              'concurrent process %d failed (exit %d): %s' % (i, process.returncode, err[-2000:]))
    check(len(entries(directory)) == 1, 'eight processes left %s' % entries(directory))
    check(glob.glob(os.path.join(directory, '.tmp-*')) == [], 'temporary files left behind')
    expect(run(env), 'after the concurrent start', disk_hits=1, source_builds=0)


def scenario_concurrent_eviction(root):
    # Eight processes share a directory that holds about one entry, so each
    # store evicts what the others just wrote or are about to read.
    directory = os.path.join(root, 'evicting')
    size = os.path.getsize(populated(directory)[0])
    env = base_env(directory)
    env['TAILOR_CACHE_MAX_BYTES'] = str(size + size // 2)
    processes = [subprocess.Popen([CLIENT, 'sum', 'min', 'max'], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(8)]
    evictions = 0
    for i, process in enumerate(processes):
        out, err = process.communicate(timeout=600)
        lines = [line for line in out.splitlines() if line.startswith('{')]
        stats = json.loads(lines[-1]) if lines else {}
        evictions += stats.get('evictions', 0)
        check(process.returncode == 0 and stats.get('ok') is True,
              'evicting process %d failed (exit %d): %s' % (i, process.returncode, err[-2000:]))
    check(evictions > 0, 'no process evicted anything')
    check(len(entries(directory)) <= 2, 'the cap was not kept: %s' % entries(directory))
    check(glob.glob(os.path.join(directory, '.tmp-*')) == [], 'temporary files left behind')
    for entry in entries(directory):
        with open(entry, 'rb') as f:
            data = f.read()
        key_length, payload = struct.unpack_from('<IQ', data, 12)
        check(len(data) == 56 + key_length + payload and
              hashlib.sha256(data[56:]).digest() == data[24:56], 'a torn entry after eviction: %s' % entry)


def main():
    root = tempfile.mkdtemp(prefix='tailor-cache-test-')
    os.chmod(root, 0o755)
    try:
        scenario_store_then_load(root)
        damaged_entry(root, 'truncated entry', truncate)
        damaged_entry(root, 'flipped byte', flip_byte)
        damaged_entry(root, 'empty file', empty)
        damaged_entry(root, 'another program file', foreign)
        damaged_entry(root, 'entry of another key', other_key)
        damaged_entry(root, 'binary the driver rejects', rejected_binary)
        damaged_entry(root, 'symbolic link', symbolic_link)
        if os.geteuid() == 0:
            damaged_entry(root, 'entry owned by another user', other_owner)
        scenario_driver_upgrade(root)
        scenario_missing_directory(root)
        scenario_file_instead_of_directory(root)
        scenario_environment_order(root)
        scenario_untrusted_directory(root)
        scenario_read_only_directory(root)
        scenario_cache_off(root)
        scenario_size_cap(root)
        scenario_stale_temporaries(root)
        scenario_concurrent_start(root)
        scenario_concurrent_eviction(root)
    finally:
        subprocess.run(['chmod', '-R', 'u+rwx', root])
        shutil.rmtree(root, ignore_errors=True)
    for note in skipped:
        print('SKIPPED: ' + note, file=sys.stderr)
    print('%d failure(s)' % len(failures), file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
