"""CPU of the processes on the box as often as the sampler gets a core, from k6's start (`k6 run`) for SECONDS:
k6, the stack JVM, the broker and PostgreSQL. Usage: sampler.py procs|groups OUT SECONDS
  procs   per process: run ns, run-queue wait ns and runnable threads (sums over /proc/PID/task/*/schedstat);
          read by run-queue.py
  groups  run ns of k6 and PostgreSQL, and of the stack's and the broker's threads by group (a thread's name
          without its trailing digits); read by wave-cpu.py"""
import os, re, subprocess, sys, time

mode, out, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])


def pids(args):
    return subprocess.run(['pgrep'] + args, capture_output=True, text=True).stdout.split()


while not pids(['-f', '^[^ ]*k6 run']):
    time.sleep(0.05)
groups = {'k6': pids(['-f', '^[^ ]*k6 run']), 'stack': pids(['-f', '^java -Xms1g']), 'broker': pids(['-f', 'kafka.Kafka']),
          'postgres': pids(['-x', 'postgres'])}
names = {}


def key(name, pid, tid):
    if mode == 'procs' or name not in ('stack', 'broker'):
        return name
    if tid not in names:
        comm = open(f'/proc/{pid}/task/{tid}/comm').read().strip()
        names[tid] = name + ':' + re.sub(r'[0-9#-]+$', '', comm).replace(' ', '_')
    return names[tid]


end = time.time() + seconds
last = 0
with open(out, 'w') as f:
    while time.time() < end:
        if time.time() - last > 0.5:
            groups['postgres'] = pids(['-x', 'postgres'])
            last = time.time()
        t = time.time() * 1000
        cells = {name: [0, 0, 0] for name in groups} if mode == 'procs' else {}
        for name, ps in groups.items():
            for pid in ps:
                try:
                    tasks = os.listdir(f'/proc/{pid}/task')
                except OSError:
                    continue
                for tid in tasks:
                    try:
                        run, wait, _ = open(f'/proc/{pid}/task/{tid}/schedstat').read().split()
                        stat = open(f'/proc/{pid}/task/{tid}/stat').read() if mode == 'procs' else ''
                        k = key(name, pid, tid)
                    except OSError:
                        continue
                    cell = cells.setdefault(k, [0, 0, 0])
                    cell[0] += int(run)
                    cell[1] += int(wait)
                    cell[2] += 1 if stat and stat[stat.rindex(')') + 2] == 'R' else 0
        if mode == 'procs':
            f.write(f"{t:.1f} " + " ".join(f"{k} {v[0]} {v[1]} {v[2]}" for k, v in cells.items()) + "\n")
        else:
            f.write(f"{t:.1f} " + " ".join(f"{k} {v[0]}" for k, v in cells.items()) + "\n")
        time.sleep(0.003)
