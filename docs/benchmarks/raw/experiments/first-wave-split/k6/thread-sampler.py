"""Like sampler2.py, but the stack JVM's and the broker's run time by thread group (the thread's name without its
trailing digits). Usage: sampler3.py OUT SECONDS"""
import os, sys, time, subprocess, re
out, seconds = sys.argv[1], float(sys.argv[2])
def pids(args):
    return subprocess.run(['pgrep'] + args, capture_output=True, text=True).stdout.split()
while not pids(['-f', '^[^ ]*k6 run']):
    time.sleep(0.05)
groups = {'k6': pids(['-f', '^[^ ]*k6 run']), 'stack': pids(['-f', '^java -Xms1g']), 'broker': pids(['-f', 'kafka.Kafka']),
          'postgres': pids(['-x', 'postgres'])}
names = {}
end = time.time() + seconds
f = open(out, 'w')
last = 0
while time.time() < end:
    if time.time() - last > 0.5:
        groups['postgres'] = pids(['-x', 'postgres']); last = time.time()
    t = time.time() * 1000
    cells = {}
    for name, ps in groups.items():
        for pid in ps:
            try: tasks = os.listdir(f'/proc/{pid}/task')
            except OSError: continue
            for tid in tasks:
                try:
                    if name in ('stack', 'broker'):
                        key = names.get(tid)
                        if key is None:
                            key = names[tid] = name + ':' + re.sub(r'[0-9#-]+$', '', open(f'/proc/{pid}/task/{tid}/comm').read().strip()).replace(' ', '_')
                    else:
                        key = name
                    r = int(open(f'/proc/{pid}/task/{tid}/schedstat').read().split()[0])
                except OSError: continue
                cells[key] = cells.get(key, 0) + r
    f.write(f"{t:.1f} " + " ".join(f"{k} {v}" for k, v in cells.items()) + "\n")
    time.sleep(0.003)
f.close()
