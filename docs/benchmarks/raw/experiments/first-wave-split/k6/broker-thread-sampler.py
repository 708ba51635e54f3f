"""Samples the broker's data-plane threads (and, optionally, others) every INTERVAL s: epoch ms, tid, comm, state,
run ns, runqueue-wait ns, wchan. Usage: sampler.py OUT SECONDS"""
import os, sys, time, subprocess
out, seconds = sys.argv[1], float(sys.argv[2])
interval = 0.002
def broker_pid():
    r = subprocess.run(['pgrep', '-f', 'kafka.Kafka'], capture_output=True, text=True).stdout.split()
    return r[0] if r else None
pid = None
while pid is None:
    pid = broker_pid(); time.sleep(0.2)
time.sleep(3)
end = time.time() + seconds
f = open(out, 'w')
tids = {}
last_scan = 0
while time.time() < end:
    now = time.time()
    if now - last_scan > 1:
        tids = {}
        for tid in os.listdir(f'/proc/{pid}/task'):
            try:
                comm = open(f'/proc/{pid}/task/{tid}/comm').read().strip()
            except OSError: continue
            if comm.startswith('data-plane') or comm.startswith('kafka-') or 'log' in comm.lower():
                tids[tid] = comm
        last_scan = now
    lines = []
    t = time.time() * 1000
    for tid, comm in tids.items():
        try:
            st = open(f'/proc/{pid}/task/{tid}/stat').read()
            state = st[st.rindex(')') + 2]
            run, wait, _ = open(f'/proc/{pid}/task/{tid}/schedstat').read().split()
            wchan = open(f'/proc/{pid}/task/{tid}/wchan').read() if state == 'D' else '-'
        except OSError: continue
        lines.append(f"{t:.1f} {tid} {comm} {state} {run} {wait} {wchan}\n")
    f.writelines(lines)
    time.sleep(interval)
f.close()
