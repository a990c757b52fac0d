#!/usr/bin/env python3
# CPU time (user + system, from wait4(2), which Node cannot read for a child) and wall time of whole commands
# against `node -e 0`, in interleaved rounds (the order alternates), as medians of the per-round ratios.
# For A/B decisions on a loaded machine, where wall time spreads over several times itself from round to round.
# Each case runs on the given Node, with bench/receiver.mjs as SERVICE_BASE_URL and a test token and secret.
#   python3 bench/cpu-rounds.py NODE ROUNDS 'name=[VAR=value ...] node-args...' ...
#   python3 bench/cpu-rounds.py "$(npx -y node@24 -p process.execPath)" 15 'send=bin/svcctl.js event send --title x'
import os, shlex, statistics, subprocess, sys, time

node, rounds, specs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
receiver = subprocess.Popen([node, os.path.join(root, 'bench', 'receiver.mjs')], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
port = int(receiver.stdout.readline())
# Without the shell's NODE_EXTRA_CA_CERTS, which Node 20 reads at every start (bench/lib.mjs says why).
env = {key: value for key, value in os.environ.items() if key != 'NODE_EXTRA_CA_CERTS'}
env = dict(env, SERVICE_BASE_URL=f'http://127.0.0.1:{port}/api', SERVICE_INGEST_TOKEN='bench-ingest-token',
           SERVICE_HMAC_SECRET='bench-hmac-secret', NO_COLOR='1')
cases = {'node -e 0': (['-e', '0'], env)}
for spec in specs:
    name, rest = spec.split('=', 1)
    words, case_env = shlex.split(rest), dict(env)
    while words and '=' in words[0] and not words[0].startswith('-'):
        key, value = words.pop(0).split('=', 1)
        case_env[key] = value
    cases[name] = (words, case_env)


def run(args, case_env):
    started = time.perf_counter()
    devnull = os.open(os.devnull, os.O_RDWR)
    pid = os.fork()
    if pid == 0:
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.execve(node, [node] + args, case_env)
    _, status, usage = os.wait4(pid, 0)
    os.close(devnull)
    if status != 0:
        raise SystemExit(f'{" ".join(args)} exited with status {status}')
    return (time.perf_counter() - started) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


names = list(cases)
samples = {name: {'wall': [], 'cpu': [], 'wall ratio': [], 'cpu ratio': []} for name in names}
try:
    for round_ in range(rounds + 2):
        order = names if round_ % 2 == 0 else names[::-1]
        values = {name: run(*cases[name]) for name in order}
        if round_ < 2:
            continue  # warm-up: caches, the disk
        for name in names:
            wall, cpu = values[name]
            base_wall, base_cpu = values['node -e 0']
            for key, value in (('wall', wall), ('cpu', cpu), ('wall ratio', wall / base_wall), ('cpu ratio', cpu / base_cpu)):
                samples[name][key].append(value)
finally:
    receiver.kill()


def quartiles(values):
    ordered = sorted(values)
    return ordered[round(0.25 * (len(ordered) - 1))], ordered[round(0.75 * (len(ordered) - 1))]


version = subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()
print(f'node {version}, {rounds} rounds, load average {os.getloadavg()[0]:.1f} (medians; ratios: median [quartiles])')
for name in names:
    s = samples[name]
    wq, cq = quartiles(s['wall ratio']), quartiles(s['cpu ratio'])
    print(f"{name:22} wall {statistics.median(s['wall']):6.0f} ms {statistics.median(s['wall ratio']):.2f}x [{wq[0]:.2f}-{wq[1]:.2f}]"
          f"   cpu {statistics.median(s['cpu']):5.0f} ms {statistics.median(s['cpu ratio']):.2f}x [{cq[0]:.2f}-{cq[1]:.2f}]")

# Paired: each case's CPU time minus the first named case's in the same round, which cancels most of the drift
# of a loaded machine (how BENCHMARKS.md gets a per-event cost out of two batch commands).
if len(names) > 2:
    reference = names[1]
    print(f'cpu minus {reference} in the same round: median [quartiles]')
    for name in names[2:]:
        diffs = [a - b for a, b in zip(samples[name]['cpu'], samples[reference]['cpu'])]
        low, high = quartiles(diffs)
        print(f"{name:22} {statistics.median(diffs):+7.1f} ms [{low:+.1f} to {high:+.1f}]")
