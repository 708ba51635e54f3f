"""Turns bench/fanout.sh's raw JSON into docs/benchmarks/fanout.md, next to the seeds' figures and our targets."""
import json
import os
import platform
import sys
from datetime import date

raw = sys.argv[1]
SCENARIOS = {
    "1000x1": ("1,000 subscribers x 1 msg/s (seed 000, Mainflux fan-out)",
               "no loss; p95 130 ms (3 x 8-vCPU Kubernetes nodes)", "zero loss, p95 <= 20 ms"),
    "8000x10": ("8,000 subscribers x 10 msg/s (seed 004, Redis/node fan-out)",
                "800,000 received; mean 167 ms, max 386 ms (8 node processes)", "zero loss, mean <= 50 ms"),
    "10000x1": ("10,000 connections held, 1 msg/s", "-", "10,000 connected, zero loss"),
}


def row(name, r):
    return (f"| {name} | {r['connected']:,} / {r['subscribers']:,} | {r['published']:,} | {r['expectedDeliveries']:,} | "
            f"{r['received']:,} | {r['lost']:,} | {r['droppedByServer']:,} | {r['latencyMeanMs']} | {r['latencyP50Ms']} | "
            f"{r['latencyP95Ms']} | {r['latencyP99Ms']} | {r['latencyMaxMs']} |")


print("# WebSocket fan-out")
print()
print(f"Command: `{os.environ.get('RUN_COMMAND', 'bench/fanout.sh')}` on {date.today().isoformat()}, {os.cpu_count()} cores, {platform.system()}; one"
      " throwaway embedded stack (broker, PostgreSQL and the four services) and the load client on the same box.")
print("The load client is `bench/wsload` (Go, one goroutine per connection): it connects the subscribers to one"
      " channel, waits until every one is subscribed, then posts EM300-TH uplinks to ingest at the given rate for"
      " the given time. Latency is the uplink's `receivedAt` at ingest to the subscriber reading the message, so it"
      " spans ingest, Kafka, the decoder, Kafka again and notify's fan-out. Loss = published x connected - received.")
print()
print("| Scenario | Connected | Published | Expected | Received | Lost | Dropped (server) | Mean ms | p50 | p95 | p99 | Max |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
results = {}
order = list(SCENARIOS) + sorted(f[:-5] for f in os.listdir(raw) if f.endswith(".json") and f[:-5] not in SCENARIOS)
for key in order:
    path = os.path.join(raw, f"{key}.json")
    if os.path.exists(path):
        with open(path) as f:
            results[key] = json.load(f)
        r = results[key]
        name = SCENARIOS[key][0] if key in SCENARIOS else f"{r['subscribers']:,} subscribers x {r['ratePerSecond']:g} msg/s"
        print(row(f"{name}, {r['durationSeconds']:.0f} s", r))
print()
print("| Scenario | Seed | Target | Here |")
print("|---|---|---|---|")
for key, (name, seed, target) in SCENARIOS.items():
    if key in results:
        r = results[key]
        here = f"lost {r['lost']:,}, mean {r['latencyMeanMs']} ms, p95 {r['latencyP95Ms']} ms, {r['connected']:,} connected"
        print(f"| {name} | {seed} | {target} | {here} |")
print()
for key in results:
    metrics = os.path.join(raw, f"{key}.metrics.txt")
    if os.path.exists(metrics):
        with open(metrics) as f:
            lines = [l.strip() for l in f if l.strip()]
        if lines:
            print(f"notify-service meters after {key}: " + "; ".join(f"`{l}`" for l in lines))
            print()
