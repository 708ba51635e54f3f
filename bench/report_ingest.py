"""Turns the k6 JSON summaries of bench/ingest.sh into the Markdown report (medians over runs)."""
import glob
import json
import os
import statistics
import sys

out, command = sys.argv[1], sys.argv[2]


def runs(mode, phase):
    found = []
    for path in sorted(glob.glob(os.path.join(out, f"ingest-{mode}-{phase}-*-summary.json"))):
        with open(path) as f:
            data = json.load(f)
        m = data["metrics"]
        seconds = data["state"]["testRunDurationMs"] / 1000
        found.append({
            "reqs": m["http_reqs"]["values"]["count"] / seconds,
            "uplinks": m.get("uplinks_accepted", {"values": {"count": 0}})["values"]["count"] / seconds,
            "failed": m["http_req_failed"]["values"]["passes"],
            "p50": m["http_req_duration"]["values"]["med"],
            "p95": m["http_req_duration"]["values"]["p(95)"],
            "p99": m["http_req_duration"]["values"]["p(99)"],
        })
    return found


def med(rows, key):
    values = [r[key] for r in rows]
    return statistics.median(values) if values else float("nan")


def rng(rows, key):
    values = [r[key] for r in rows]
    return f"{min(values):,.0f}–{max(values):,.0f}" if values else "-"


def errors(rows):
    return sum(r["failed"] for r in rows)


alone = {mode: runs(mode, "alone") for mode in ("noop", "single", "batch", "latency")}
full = {mode: runs(mode, "pipeline") for mode in ("single", "latency")}
noop = med(alone["noop"], "reqs")
env_file = os.path.join(out, "env.txt")
env = open(env_file).read().strip() if os.path.exists(env_file) else ""

print("# Ingest benchmark\n")
print(f"Command: `{command}`, on this 2-core machine. The k6 load generator runs on the same box and")
print("competes with the service, the Kafka broker (acks=all, idempotent producer) and, in the second table,")
print("the rest of the pipeline for the two cores. Each figure is the median of "
      f"{len(alone['single'])} runs, the range in the next column. Raw k6 summaries: `{out}/`.\n")
if env:
    print("```\n" + env + "\n```\n")
print("## Ingest alone (downstream consumers not running)\n")
print("| measurement | median | range | failed requests (all runs) |")
print("|---|---|---|---|")
print(f"| HTTP ceiling: `/bench/noop` (202 without Kafka), req/s | {noop:,.0f} | {rng(alone['noop'], 'reqs')} | {errors(alone['noop'])} |")
print(f"| single-uplink POSTs/s, 202 after acks=all | {med(alone['single'], 'uplinks'):,.0f} | {rng(alone['single'], 'uplinks')} | {errors(alone['single'])} |")
print(f"| batched uplinks/s (100 per request) | {med(alone['batch'], 'uplinks'):,.0f} | {rng(alone['batch'], 'uplinks')} | {errors(alone['batch'])} |")
print(f"| fixed-rate run: achieved req/s | {med(alone['latency'], 'reqs'):,.0f} | {rng(alone['latency'], 'reqs')} | {errors(alone['latency'])} |")
print(f"| fixed-rate run: latency p50 / p95 / p99, ms | {med(alone['latency'], 'p50'):.1f} / {med(alone['latency'], 'p95'):.1f} / {med(alone['latency'], 'p99'):.1f} | | |")
print()
print(f"Single-uplink ingest reaches **{med(alone['single'], 'uplinks') / noop * 100:.0f} %** of the HTTP ceiling "
      "measured with the same generator in the same run.\n")
print("## Whole pipeline running (decoder, rules, history writer and live fan-out consume as ingest takes)\n")
print("| measurement | median | range | failed requests (all runs) |")
print("|---|---|---|---|")
print(f"| single-uplink POSTs/s | {med(full['single'], 'uplinks'):,.0f} | {rng(full['single'], 'uplinks')} | {errors(full['single'])} |")
print(f"| fixed-rate run: achieved req/s | {med(full['latency'], 'reqs'):,.0f} | {rng(full['latency'], 'reqs')} | {errors(full['latency'])} |")
print(f"| fixed-rate run: latency p50 / p95 / p99, ms | {med(full['latency'], 'p50'):.1f} / {med(full['latency'], 'p95'):.1f} / {med(full['latency'], 'p99'):.1f} | | |")
