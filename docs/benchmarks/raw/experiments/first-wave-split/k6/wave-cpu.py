"""CPU run time in the first wave by process and thread group, from sampler.py groups, as the runs sampled. Arguments: DIR:N (DIR holding out-N/ and groups-N.txt)."""
import sys, collections

from k6wave import first_wave
for arg in sys.argv[1:]:
    d, n = arg.rsplit(':', 1)
    client, release, wave_end = first_wave(d, n)
    rows=[]
    for l in open(f'{d}/groups-{n}.txt'):
        p=l.split(); rows.append((float(p[0])-release, {p[i]:int(p[i+1]) for i in range(1,len(p),2)}))
    def at(t):
        best=rows[0]
        for r in rows:
            if r[0]<=t: best=r
        return best
    a,b=at(0),at(wave_end)
    span=b[0]-a[0]
    diff={k:(b[1][k]-a[1].get(k,0))/1e6 for k in b[1]}
    total=sum(diff.values())
    print(f"run {n}: first wave {a[0]:.0f}..{b[0]:.0f} ms after release ({span:.0f} ms, {2*span:.0f} core-ms); CPU run {total:.0f} ms")
    by=collections.defaultdict(float)
    for k,v in diff.items(): by[k.split(':')[0]]+=v
    print("  by process: " + ", ".join(f"{k} {v:.0f}" for k,v in sorted(by.items(), key=lambda x:-x[1])))
    for k,v in sorted(diff.items(), key=lambda x:-x[1])[:22]:
        if v>=1: print(f"    {k:40} {v:6.1f} ms")
