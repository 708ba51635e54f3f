"""Ack bursts and the broker's data-plane threads per 10 ms of the first wave, from broker-thread-sampler.py's threads-N.txt. Arguments: DIR N."""
import sys, collections

from k6wave import first_wave
d, n = sys.argv[1], sys.argv[2]
client, release, _ = first_wave(d, n)
s=[tuple(map(float,l.split())) for l in open(f'{d}/server-{n}.txt')]
ch=[x for x in s if release-50<=x[0]<release+1000]
acks=sorted(x[6]-release for x in ch)
bursts=[[acks[0]]]
for a in acks[1:]:
    if a-bursts[-1][-1]>3: bursts.append([a])
    else: bursts[-1].append(a)
print("ack bursts:", ", ".join(f"{b[0]:.0f}({len(b)})" for b in bursts))
pubs=sorted(x[5]-release for x in ch); print("published", f"{pubs[0]:.0f}..{pubs[-1]:.0f}")
rows=collections.defaultdict(list)
for l in open(f'{d}/threads-{n}.txt'):
    p=l.split()
    t=float(p[0])-release
    if -20<t<320: rows[p[1]].append((t,p[2],p[3],int(p[4]),int(p[5]),p[6]))
B=10
print("per 10 ms: for each data-plane thread: ms run / ms runqueue-wait / states seen (D=disk sleep)")
tids=[tid for tid,r in rows.items() if r[0][1].startswith('data-plane') and r[-1][3]-r[0][3]>0]
for tid in tids: print(" ", tid, rows[tid][0][1], f"run {(rows[tid][-1][3]-rows[tid][0][3])/1e6:.1f} ms wait {(rows[tid][-1][4]-rows[tid][0][4])/1e6:.1f} ms over the window")
for b in range(-2, 32):
    cells=[]
    for tid in tids:
        r=[x for x in rows[tid] if b*B<=x[0]<(b+1)*B]
        if len(r)<2: cells.append("      -        "); continue
        prev=[x for x in rows[tid] if x[0]<b*B]
        base=prev[-1] if prev else r[0]
        states=''.join(sorted(set(x[2] for x in r)))
        wch=set(x[5] for x in r if x[5]!='-')
        cells.append(f"{(r[-1][3]-base[3])/1e6:4.1f}/{(r[-1][4]-base[4])/1e6:4.1f} {states:3}{'/'.join(wch)}")
    print(f"{b*B:4} " + " | ".join(cells))
