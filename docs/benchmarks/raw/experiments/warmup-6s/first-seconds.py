"""POST latency at k6 per second of a restart case's window: samples, p50, p99, max; then p99 with and without the
first second. Usage: python3 first-seconds.py <case>/k6/samples.csv.gz"""
import collections
import csv
import gzip
import sys

by_second = collections.defaultdict(list)
start = None
for row in csv.DictReader(gzip.open(sys.argv[1], "rt")):
    if row["metric_name"] != "http_req_duration":
        continue
    t = int(row["timestamp"])
    start = start or t
    if t - start < 60000:
        by_second[(t - start) // 1000].append(float(row["metric_value"]))


def pct(values, p):
    return round(values[min(len(values) - 1, int(len(values) * p))], 1)


for second in sorted(by_second)[:8]:
    v = sorted(by_second[second])
    print(f"second {second}: {len(v)} POSTs, p50 {pct(v, .5)}, p99 {pct(v, .99)}, max {v[-1]:.1f}")
everything = sorted(x for v in by_second.values() for x in v)
after_first = sorted(x for s, v in by_second.items() if s >= 1 for x in v)
print(f"p99 over the minute {pct(everything, .99)}, without its first second {pct(after_first, .99)}")
