import gzip, sys, os
for d in sys.argv[1:]:
    p = os.path.join(d, 'run-1', 'posts.txt.gz')
    if not os.path.exists(p): continue
    rows = sorted(tuple(map(float, l.split())) for l in gzip.open(p, 'rt'))
    t0 = rows[0][0]
    w = sorted(x for t, x in rows if t - t0 < 1000); a = sorted(x for t, x in rows)
    q = lambda v, f: v[int(len(v) * f)]
    print(f"{os.path.basename(d.rstrip('/')):8} wave n={len(w)} p10 {q(w,.1):.1f} p40 {q(w,.4):.1f} p50 {q(w,.5):.1f} p90 {q(w,.9):.1f} max {w[-1]:.1f} | all p99 {q(a,.99):.1f}")
