"""Reads cold-processes-anatomy/run.sh's raw files: time_lapse and POST percentiles by 5 s of the run, where the
samples above the run's p95 (time_lapse) and p99 (POST) lie, and each JVM's CPU by thread group over
time, and each hop's p95 per histogram scrape."""
import csv, gzip, os, re, sys
from collections import defaultdict

out = sys.argv[1]
hz = os.sysconf('SC_CLK_TCK')


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(round(p / 100 * len(v) + 0.5)) - 1))] if v else float('nan')


def group(comm):
    # bench/lib.sh's threads() writes every digit as N, so C1 and C2 threads share one name.
    if comm.startswith('CN_Compiler'):
        return 'jit'
    if comm.startswith('GC_') or comm in ('VM_Thread', 'G1_Service') or 'GC' in comm:
        return 'gc+vm'
    return 'app'


for phase in ('cold', 'warm'):
    path = f'{out}/{phase}-samples.csv.gz'
    if not os.path.exists(path):
        continue
    lapse, post = [], []
    with gzip.open(path, 'rt') as f:
        for row in csv.DictReader(f):
            if row['metric_name'] == 'time_lapse':
                lapse.append((int(row['timestamp']), float(row['metric_value'])))
            elif row['metric_name'] == 'http_req_duration' and row.get('scenario') == 'ingestion':
                post.append((int(row['timestamp']), float(row['metric_value'])))
    t0 = min(t for t, _ in post)
    print(f'\n## {phase}: {len(post)} POSTs, {len(lapse)} time_lapse samples')
    for name, samples, p in (('time_lapse', lapse, 95), ('POST', post, 99)):
        cut = pct([v for _, v in samples], p)
        by = defaultdict(list)
        for t, v in samples:
            by[(t - t0) // 5000].append(v)
        print(f'\n{name}: p{p} of the run {cut:.1f} ms; by 5 s of the run (from the first POST):')
        print('| s | n | p50 | p95 | p99 | max | above the run\'s p%d |' % p)
        print('|---|---|---|---|---|---|---|')
        for w in sorted(by):
            v = by[w]
            print(f'| {w * 5}-{w * 5 + 5} | {len(v)} | {pct(v, 50):.1f} | {pct(v, 95):.1f} | {pct(v, 99):.1f} | '
                  f'{max(v):.1f} | {sum(1 for x in v if x > cut)} |')
    start_us = int(open(f'{out}/{phase}-start-us').read())
    snaps, cur = [], None
    for line in open(f'{out}/{phase}-threads.txt'):
        parts = line.split()
        if parts[0] == '@':
            cur = (int(parts[1]), defaultdict(float))
            snaps.append(cur)
        elif cur and len(parts) == 3:
            cur[1][(parts[0], group(parts[1]))] += float(parts[2]) / hz
    print(f'\n{phase}: CPU s by process, its JIT compiler threads / the rest, per 2 s (1-3 s as sampled), then 10 s (from k6\'s start; k6 starts 3 s before its first POST)')
    keys = sorted({k for _, s in snaps for k in s})
    procs = sorted({p for p, _ in keys}, key=lambda p: ['ingest', 'decoder', 'rules', 'notify', 'broker', 'k6'].index(p))
    print('| s | ' + ' | '.join(f'{p} JIT / rest' for p in procs) + ' | all |')
    print('|---|' + '---|' * (len(procs) + 1))

    def window(us):
        # 2 s windows over the first 16 s, where a cold run's slow samples lie, then 10 s.
        return us // 2_000_000 if us < 16_000_000 else 8 + (us - 16_000_000) // 10_000_000

    prev = snaps[0]
    for s in snaps[1:]:
        if window(s[0] - snaps[0][0]) == window(prev[0] - snaps[0][0]) and s is not snaps[-1]:
            continue
        cells, total = [], 0.0
        for p in procs:
            d = {g: s[1].get((p, g), 0) - prev[1].get((p, g), 0) for g in ('jit', 'app', 'gc+vm')}
            # k6 comes and goes between phases: a process absent in the earlier snapshot counts from zero.
            d = {g: max(0.0, x) for g, x in d.items()}
            total += sum(d.values())
            cells.append(f"{d['jit']:.1f} / {d['app'] + d['gc+vm']:.1f}")
        print(f'| {(prev[0] - start_us) / 1e6:.0f}-{(s[0] - start_us) / 1e6:.0f} | ' + ' | '.join(cells) + f' | {total:.1f} |')
        prev = s

    # The services' own latency by hop, from the histograms scraped every second (bucket upper bounds, ms).
    path = f'{out}/{phase}-hops.txt'
    if not os.path.exists(path):
        continue
    short = [('http_server_requests', 'POST 202'), ('ingest_kafka_send', 'kafka send'),
             ('hop="decoder-poll"', 'decoder poll'), ('hop="decoder-publish"', 'decoder publish'),
             ('hop="notify-poll"', 'notify poll'), ('hop="websocket-write"', 'ws write'),
             ('notify_delivery_latency', 'delivery'), ('hop="rules-poll"', 'rules poll')]
    snaps = []
    for line in open(path):
        if line.startswith('@ '):
            snaps.append((int(line.split()[1]), defaultdict(float)))
            continue
        m = re.match(r'^(\w+)\{(.*)\} (\S+)$', line.strip())
        if not m or not snaps:
            continue
        labels = m.group(2)
        le = re.search(r'le="([^"]+)"', labels).group(1)
        for key, name in short:
            if key in m.group(1) + labels:
                snaps[-1][1][(name, float('inf') if le == '+Inf' else float(le) * 1000)] += float(m.group(3))
                break

    def quantile(d, name, q):
        bounds = sorted(b for n, b in d if n == name)
        total = d.get((name, float('inf')), 0)
        if total <= 0:
            return None, 0
        for b in bounds:
            if d[(name, b)] >= q * total:
                return b, total
        return float('inf'), total

    print(f'\n{phase}: each hop\'s p95 (ms, bucket bound) and count per scrape interval, from the first POST')
    names = [n for _, n in short]
    print('| s | ' + ' | '.join(names) + ' |')
    print('|---|' + '---|' * len(names))
    for prev, cur in zip(snaps, snaps[1:]):
        d = {k: cur[1][k] - prev[1].get(k, 0) for k in cur[1]}
        cells = []
        for n in names:
            v, c = quantile(d, n, 0.95)
            cells.append('' if v is None else f'{v:.0f} ({c:.0f})')
        print(f'| {(prev[0] / 1000 - t0) / 1000:.0f}-{(cur[0] / 1000 - t0) / 1000:.0f} | ' + ' | '.join(cells) + ' |')
