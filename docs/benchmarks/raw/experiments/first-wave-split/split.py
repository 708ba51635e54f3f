"""The cold first wave split at the server (first-wave-split.md). Arguments: OUT:server-file pairs, OUT being a
seed-waves.sh output directory (the Go generator's samples in OUT/run-1/posts.txt.gz: answer read, latency, ms) and
the server file the probe dumped (epoch ms per request: Tomcat's start of the request, the lean path's entry, the
credential checked, the answer written; with probe2.patch four more from UplinkIntake: admitted, the publish call
returned, acknowledged on the producer's thread, the request's thread resumed). The release is the generator's
earliest send; the first wave, the requests Tomcat started within 1 s of it."""
import gzip, sys

def pct(values, f):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * f))]

def row(name, values):
    return f"  {name:40} p10 / p40 / p50 / p90 / max  " + " / ".join(f"{pct(values, f):.1f}" for f in (.1, .4, .5, .9, .999))

for run in sys.argv[1:]:
    out, server = run.split(':')
    client = [tuple(map(float, l.split())) for l in gzip.open(f'{out}/run-1/posts.txt.gz', 'rt')]
    samples = [tuple(map(float, l.split())) for l in open(server)]
    release = min(t - x for t, x in client)
    for label, chosen in (("the first wave", [s for s in samples if release - 50 <= s[0] < release + 1000]),
                          ("after 10 s", [s for s in samples if s[0] - release > 10000])):
        print(f"{out}: {label}, {len(chosen)} requests at the server, ms")
        if label == "the first wave":
            print(row("generator: POST latency", [x for t, x in client if t - release < 1000]))
            print(row("generator: release -> answer read", [t - release for t, x in client if t - release < 1000]))
            print(row("release -> Tomcat starts the request", [s[0] - release for s in chosen]))
            print(row("Tomcat start -> lean path entered", [s[1] - s[0] for s in chosen]))
            print(row("entered -> credential checked", [s[2] - s[1] for s in chosen]))
        if len(chosen[0]) >= 8:
            print(row("credential checked -> admitted (parse)", [s[4] - s[2] for s in chosen]))
            print(row("admitted -> publish call returned", [s[5] - s[4] for s in chosen]))
            print(row("returned -> acknowledged", [max(0, s[6] - s[5]) for s in chosen]))
            print(row("acknowledged -> thread resumed", [max(0, s[7] - s[6]) for s in chosen]))
            print(row("resumed -> answer written", [s[3] - s[7] for s in chosen]))
        print(row("credential checked -> answer written", [s[3] - s[2] for s in chosen]))
        if label == "the first wave":
            print(row("release -> answer written", [s[3] - release for s in chosen]))
