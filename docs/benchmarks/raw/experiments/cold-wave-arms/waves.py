"""Per-wave figures of seed-waves.sh runs made with WAVES=1 (every second's 500 POSTs released together): for each
run directory, the first wave's p40, and over the waves after it the median (and quartiles) of each wave's p10, p40
and p90, in ms. A wave is the POSTs sent in the same second of the run (sent = answered - latency)."""
import gzip, os, statistics, sys

def pct(values, f):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * f))]

for d in sys.argv[1:]:
    p = os.path.join(d, 'run-1', 'posts.txt.gz')
    if not os.path.exists(p):
        continue
    rows = [tuple(map(float, line.split())) for line in gzip.open(p, 'rt')]
    t0 = min(t - x for t, x in rows)
    waves = {}
    for t, x in rows:
        waves.setdefault(int((t - x - t0) // 1000), []).append(x)
    later = [w for k, w in sorted(waves.items()) if k > 0 and len(w) >= 400]
    def over(f):
        per = [pct(w, f) for w in later]
        q = statistics.quantiles(per, n=4)
        return f"{statistics.median(per):5.1f} [{q[0]:.1f}-{q[2]:.1f}]"
    print(f"{os.path.basename(d.rstrip('/')):6} first wave p40 {pct(waves[0], .4):6.1f} | {len(later)} later waves, median "
          f"(quartiles) of p10 {over(.1)}  p40 {over(.4)}  p90 {over(.9)}")
