#!/usr/bin/env python3
"""time_lapse at k6's subscriber against bench/wsload's, per run and phase, from a bench/latency.sh SIDE_SUBSCRIBER=1
results directory (e.g. processes-raw/ or in-jvm-raw/ beside this file; default processes-raw/): a Markdown table on stdout."""
import json, pathlib, statistics, sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "processes-raw")
rows = {"cold": [], "warm": []}
print("| run | phase | wsload p50 / p95 / p99 | k6 p50 / p95 / p99 | k6 − wsload at p95 |")
print("|---|---|---|---|---|")
for run in sorted(root.glob("run-*")):
    for phase in ("cold", "warm"):
        side = json.loads((run / f"{phase}-side.json").read_text())
        k6 = json.loads(next((run / phase).glob("*-summary.json")).read_text())["metrics"]["time_lapse"]
        k6 = k6.get("values", k6)
        g = (side["latencyP50Ms"], side["latencyP95Ms"], side["latencyP99Ms"])
        k = (k6["med"], k6["p(95)"], k6["p(99)"])
        rows[phase].append((g, k))
        print(f"| {run.name} | {phase} | {g[0]:.1f} / {g[1]:.1f} / {g[2]:.0f} ({side['received']:,} received) "
              f"| {k[0]:.0f} / {k[1]:.0f} / {k[2]:.0f} | {k[1] - g[1]:+.1f} |")
for phase, r in rows.items():
    print(f"\n{phase}, medians: wsload p95 {statistics.median(x[0][1] for x in r):.1f}, "
          f"k6 p95 {statistics.median(x[1][1] for x in r):.0f}")
