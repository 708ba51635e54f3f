"""Per-process CPU run time, run-queue wait (sums of /proc/PID/task/*/schedstat) and runnable threads, sampled as
often as the sampler gets a core, from k6's start for SECONDS. Usage: sampler2.py OUT SECONDS"""
import os, sys, time, subprocess
out, seconds = sys.argv[1], float(sys.argv[2])
def pids(args):
    return subprocess.run(['pgrep'] + args, capture_output=True, text=True).stdout.split()
while not pids(['-f', '^[^ ]*k6 run']):
    time.sleep(0.05)
groups = {'k6': pids(['-f', '^[^ ]*k6 run']), 'stack': pids(['-f', '^java -Xms1g']), 'broker': pids(['-f', 'kafka.Kafka']),
          'postgres': pids(['-x', 'postgres'])}
end = time.time() + seconds
f = open(out, 'w')
last = 0
while time.time() < end:
    if time.time() - last > 0.5:
        groups['postgres'] = pids(['-x', 'postgres']); last = time.time()
    t = time.time() * 1000
    cells = []
    for name, ps in groups.items():
        run = wait = runnable = 0
        for pid in ps:
            try: tasks = os.listdir(f'/proc/{pid}/task')
            except OSError: continue
            for tid in tasks:
                try:
                    r, w, _ = open(f'/proc/{pid}/task/{tid}/schedstat').read().split()
                    st = open(f'/proc/{pid}/task/{tid}/stat').read()
                except OSError: continue
                run += int(r); wait += int(w)
                if st[st.rindex(')') + 2] == 'R': runnable += 1
        cells.append(f"{name} {run} {wait} {runnable}")
    f.write(f"{t:.1f} " + " ".join(cells) + "\n")
    time.sleep(0.003)
f.close()
