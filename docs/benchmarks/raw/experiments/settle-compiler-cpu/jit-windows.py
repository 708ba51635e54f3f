"""ad hoc: which methods each service JVM compiled (-Xlog:jit+compilation=debug:file=/tmp/jitlog/jit-%p.log:uptime,tid)
in the two seconds before its readiness, between readiness and the first POST, and in the first 10 s of the cold
run, by tier, with the lower tiers made not entrant and why. Arguments: the kept data directory (KEEP_DATA=1) and
the anatomy script's OUT."""
import re,sys,glob,datetime,collections
d=sys.argv[1]; anat=sys.argv[2]
k6=int(open(anat+'/cold-start-us').read())/1e6
pids=dict(l.strip().split('=')[::-1] for l in open(anat+'/pids'))
for log in glob.glob(d+'/logs/*.log'):
    txt=open(log).read()
    m=re.search(r'^(\S+)\s+INFO (\d+) .*process running for ([\d.]+)\)',txt,re.M)
    ts=datetime.datetime.fromisoformat(m.group(1).replace('Z','+00:00')).timestamp()
    pid=m.group(2); start=ts-float(m.group(3))
    r=re.search(r'^(\S+)\s+INFO .*Warmed up',txt,re.M)
    ready=datetime.datetime.fromisoformat(r.group(1).replace('Z','+00:00')).timestamp()-start
    first=k6+3-start
    rows=[]
    for line in open(f'/tmp/jitlog/jit-{pid}.log'):
        mm=re.match(r'\[([\d.]+)s\]\[(\d+)\]\s+(\d+)\s([ %sbn!]{5,7})\s*(\d)\s+(\S+)\s+\((\d+) bytes\)(.*)',line)
        if mm: rows.append((float(mm.group(1)),mm.group(5),mm.group(6),mm.group(8).strip()))
    name=pids.get(pid,pid)
    def summ(a,b):
        w=[r for r in rows if a<=r[0]<b]
        comp=collections.Counter(r[1] for r in w if not r[3])
        ne=collections.Counter(r[3].split(':',1)[1].strip() for r in w if r[3])
        return dict(comp), dict(ne)
    print(f'{name} pid {pid}: ready at {ready:.1f}s, k6 at {k6-start:.1f}, first POST ~{first:.1f}')
    print('  ready-2..ready', summ(ready-2,ready))
    print('  ready..firstPOST', summ(ready,first))
    print('  first 5 s', summ(first,first+5))
    print('  5-10 s', summ(first+5,first+10))
    w=[r for r in rows if first<=r[0]<first+5 and not r[3] and r[1] in '34']
    print('  top packages (lvl3/4) in first 5 s', collections.Counter('.'.join(r[2].split('::')[0].split('.')[:3]) for r in w).most_common(12))
