"""The cold first wave under k6, split at the server (first-wave-split.md, "Under k6"). Arguments: DIR:N pairs, DIR
holding a seed-waves.sh output out-N/ (k6's samples in out-N/run-1/posts.txt.gz: sample time, latency, ms; k6 stamps
a sample when it has read the answer) and the probe's server-N.txt (probe.patch + probe2.patch). One table row a run,
ms after the release (k6's earliest send) or ms long; p40 / p90."""
import re, sys

from k6wave import first_wave, pct

def two(values):
    return f"{pct(values, .4):.0f} / {pct(values, .9):.0f}"

print("| run | k6 µs/POST | POST p99 | first wave at k6: latency | k6 sends | Tomcat starts | answers written "
      "| k6 reads | Tomcat start → written | publish → ack | ack → resumed |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for arg in sys.argv[1:]:
    d, n = arg.rsplit(':', 1)
    client, release, _ = first_wave(d, n)
    first = [(t, x) for t, x in client if t - x - release < 1000]
    server = [tuple(map(float, l.split())) for l in open(f'{d}/server-{n}.txt')]
    wave = [s for s in server if release - 50 <= s[0] < release + 1000]
    report = open(f'{d}/report-{n}.md').read()
    k6 = re.search(r'k6 CPU per POST (\d+)', report).group(1)
    p99 = re.search(r'POST p99 ([0-9.]+) ms over the whole run', report).group(1)
    print(f"| {d.split('/')[-1]}/{n} | {k6} | {p99} | {two([x for t, x in first])} | {two([t - x - release for t, x in first])} "
          f"| {two([s[0] - release for s in wave])} | {two([s[3] - release for s in wave])} | {two([t - release for t, x in first])} "
          f"| {two([s[3] - s[0] for s in wave])} | {two([max(0, s[6] - s[5]) for s in wave])} | {two([max(0, s[7] - s[6]) for s in wave])} |")
