"""The cold first wave split by where each request's time went (first-wave-split.md): for each run N, the Go
generator's samples (OUT/run-1/posts.txt.gz: answer read, latency, ms) and the probe's server samples
(server-N.txt: Tomcat's start of the request, the lean path's entry, the credential checked, the answer written;
epoch ms). The release is the generator's earliest send; the first wave, the requests Tomcat started within 1 s."""
import gzip, sys

def pct(values, f):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * f))]

def row(name, values):
    return f"  {name:36} p10 / p40 / p50 / p90 / max  " + " / ".join(f"{pct(values, f):.1f}" for f in (.1, .4, .5, .9, .999))

for run in sys.argv[1:]:
    out, server = run.split(':')
    client = [tuple(map(float, l.split())) for l in gzip.open(f'{out}/run-1/posts.txt.gz', 'rt')]
    samples = [tuple(map(float, l.split())) for l in open(server)]
    release = min(t - x for t, x in client)
    wave = [s for s in samples if release - 50 <= s[0] < release + 1000]
    print(f"{out}: the first wave, {len(wave)} requests at the server, ms")
    print(row("generator: POST latency", [x for t, x in client if t - release < 1000]))
    print(row("generator: release -> answer read", [t - release for t, x in client if t - release < 1000]))
    print(row("release -> Tomcat starts the request", [s[0] - release for s in wave]))
    print(row("Tomcat start -> lean path entered", [s[1] - s[0] for s in wave]))
    print(row("entered -> credential checked", [s[2] - s[1] for s in wave]))
    print(row("checked -> answer written", [s[3] - s[2] for s in wave]))
    print(row("release -> answer written", [s[3] - release for s in wave]))
    later = [s[3] - s[0] for s in samples if s[0] - release > 10000]
    print(row("after 10 s: Tomcat start -> answer", later))
