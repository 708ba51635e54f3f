"""Per process in the first wave and two later seconds: CPU run time and run-queue wait, from sampler.py procs, as the runs sampled. Arguments: DIR:N (DIR holding out-N/ and procs-N.txt)."""
import sys

from k6wave import first_wave
for arg in sys.argv[1:]:
    d, n = arg.rsplit(':', 1)
    client, release, wave_end = first_wave(d, n)
    rows=[]
    for l in open(f'{d}/procs-{n}.txt'):
        p=l.split(); t=float(p[0])-release
        vals={}
        for i in range(1,len(p),4): vals[p[i]]=(int(p[i+1]),int(p[i+2]),int(p[i+3]))
        rows.append((t,vals))
    def at(t):  # last sample at or before t
        best=rows[0]
        for r in rows:
            if r[0]<=t: best=r
        return best
    print(f"run {n}: first wave read by {wave_end:.0f} ms after release; sample gaps max {max(b[0]-a[0] for a,b in zip(rows,rows[1:]) if 0<a[0]<wave_end):.0f} ms")
    for lo,hi in ((0, wave_end), (1000, 2000), (3000, 4000)):
        a, b = at(lo), at(hi)
        span=b[0]-a[0]
        tot_run=sum(b[1][k][0]-a[1][k][0] for k in b[1])/1e6
        print(f"  window {a[0]:.0f}..{b[0]:.0f} ms ({span:.0f} ms wall, {2*span:.0f} core-ms): CPU run {tot_run:.0f} ms")
        for k in b[1]:
            r=(b[1][k][0]-a[1][k][0])/1e6; w=(b[1][k][1]-a[1][k][1])/1e6
            print(f"    {k:9} run {r:6.1f} ms ({100*r/(2*span):4.1f} % of the box)  run-queue wait {w:7.1f} ms  (wait/run {w/r if r else 0:4.1f})")
