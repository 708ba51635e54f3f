# Where a restart case's slow POSTs lie: for each samples.csv.gz (bench/restarts.sh keeps every k6 sample there, not
# committed), the run's POST p99, how many samples above it fall in each second from the first POST, and the p99 of
# each of the first 8 seconds. Usage: python3 first-seconds.py docs/benchmarks/raw/restarts/run-*/ingest-kill/k6/samples.csv.gz
import gzip,sys,collections
for f in sys.argv[1:]:
    rows=[l.split(',') for l in gzip.open(f,'rt').read().splitlines()[1:]]
    post=[(int(r[1]),float(r[2])) for r in rows if r[0]=='http_req_duration' and r[3]=='ingestion']
    t0=min(t for t,_ in post)
    allv=sorted(v for _,v in post); p99=allv[int(len(allv)*0.99)]
    by=collections.defaultdict(list)
    for t,v in post: by[(t-t0)//1000].append(v)
    above=collections.Counter(((t-t0)//1000) for t,v in post if v>p99)
    print(f, 'n',len(post),'p99 %.1f'%p99, 'above p99 by second:', sorted(above.items())[:12])
    print('  per-second p99 first 8 s:', [ '%.0f'%sorted(by[s])[int(len(by[s])*0.99)] for s in range(8)])
