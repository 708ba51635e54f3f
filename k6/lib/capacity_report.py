#!/usr/bin/env python3
"""Aggregates a k6/capacity.sh run directory into capacity-report.md and capacity.json.

Usage: capacity_report.py DIR RATE50. Reads ramp-*/capacity-ramp-result.json, steady-*/ and stressed-*/
capacity-steady-result.json and the k6 summaries next to them (for their threshold verdicts)."""
import datetime
import glob
import json
import os
import statistics
import sys


def load(pattern):
    runs = []
    def repeat(path):  # ramp-2/... -> 2
        suffix = os.path.basename(os.path.dirname(path)).rsplit('-', 1)[-1]
        return int(suffix) if suffix.isdigit() else 0

    for path in sorted(glob.glob(pattern), key=repeat):
        with open(path) as f:
            result = json.load(f)
        summary_path = glob.glob(os.path.join(os.path.dirname(path), '*-summary.json'))
        failed = []
        if summary_path:
            with open(summary_path[0]) as f:
                summary = json.load(f)
            for name, metric in summary.get('metrics', {}).items():
                for expr, verdict in (metric.get('thresholds') or {}).items():
                    if not verdict.get('ok', True) and not expr.endswith('>=0'):
                        failed.append(f'{name} {expr}')
        result['run'] = os.path.basename(os.path.dirname(path))
        result['failedThresholds'] = failed
        runs.append(result)
    return runs


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {
        'mean': statistics.mean(values), 'stdev': statistics.stdev(values) if len(values) > 1 else 0.0,
        'min': min(values), 'max': max(values), 'n': len(values),
    }


def ms(v):
    if v is None:
        return 'n/a'
    return f'{v:,.0f}' if v >= 100 else f'{v:.1f}'


def fmt_spread(s, unit=''):
    if not s:
        return 'n/a'
    cv = f', cv {100 * s["stdev"] / s["mean"]:.0f} %' if s['mean'] else ''
    return f'{ms(s["mean"])}{unit} ± {ms(s["stdev"])} (min {ms(s["min"])}, max {ms(s["max"])}{cv})'


def main():
    directory, rate50 = sys.argv[1], int(sys.argv[2])
    ramps = load(os.path.join(directory, 'ramp-*', 'capacity-ramp-result.json'))
    steady = load(os.path.join(directory, 'steady-*', 'capacity-steady-result.json'))
    stressed = load(os.path.join(directory, 'stressed-*', 'capacity-steady-result.json'))
    maxima = spread([r['maxSustainable'] for r in ramps])

    def figures(run):
        step = run['steps'][0]
        return {
            'post': step['http'], 'timeLapse': step['timeLapse'], 'accepted': step['accepted'],
            'planned': step['planned'], 'stored': run.get('stored'), 'failedRequests': step['failedRequests'],
        }

    slowdown = []
    for kind, label in (('post', 'POST'), ('timeLapse', 'time_lapse')):
        for p in ('p50', 'p95', 'p99'):
            base = spread([figures(r)[kind][p] for r in steady])
            load_ = spread([figures(r)[kind][p] for r in stressed])
            ratio = (load_['mean'] / base['mean']) if base and load_ and base['mean'] else None
            slowdown.append({'figure': f'{label} {p}', 'unstressed': base, 'stressed': load_, 'slowdown': ratio})

    out = {
        'date': datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds'),
        'command': os.environ.get('RUN_COMMAND', ''), 'machine': os.environ.get('MACHINE', ''),
        'stress': os.environ.get('STRESS_ARGS', ''), 'rate50': rate50, 'maxima': maxima,
        'ramps': ramps, 'steady': steady, 'stressed': stressed, 'slowdown': slowdown,
    }
    with open(os.path.join(directory, 'capacity.json'), 'w') as f:
        json.dump(out, f, indent=2)

    lines = ['# Capacity and stress (seed 002)', '']
    lines.append(f'- **Run:** {out["date"]}')
    if out['command']:
        lines.append(f'- **Command:** `{out["command"]}`')
    if out['machine']:
        lines.append(f'- **Machine:** {out["machine"]}')
    lines.append(f'- **Target:** ingest {os.environ.get("INGEST_URL", "http://127.0.0.1:8080")}, '
                 f'notify {os.environ.get("NOTIFY_URL", "http://127.0.0.1:8083")}')
    if ramps:
        r = ramps[0]
        lines.append(f'- **Ramp:** single EM300-TH uplinks, steps of {r["stepSeconds"]} s; a step fails on any failed or '
                     f'unsent uplink, POST p99 > {r["httpP99Bound"]} ms or time_lapse p99 > {r["e2eP99Bound"]} ms '
                     '(receivedAt at ingest -> WebSocket, sampled on probe devices)')
    lines.append(f'- **Stress:** `stress-ng {out["stress"]}` on the same machine' if stressed else
                 '- **Stress:** none (stress-ng missing)')
    lines += ['', '## Maximum sustainable rate', '', '| ramp | maximum sustainable | first failing step | why |', '|---|---|---|---|']
    for r in ramps:
        first = r.get('firstFailing')
        failing = f'{first["rate"]:,}/s' if first else 'none'
        why = '; '.join(first['reasons']) if first else 'no step failed'
        lines.append(f'| {r["run"]} | {r["maxSustainable"]:,}/s | {failing} | {why} |')
    lines += ['', f'Over {len(ramps)} ramps: {fmt_spread(maxima, "/s")}. Steady runs below at 50 % of the median: '
              f'**{rate50:,} uplinks/s**.', '']
    lines += ['## 50 % of capacity, without and with stress', '',
              '| run | accepted | stored | POST p50 / p95 / p99 | time_lapse p50 / p95 / p99 | thresholds |',
              '|---|---|---|---|---|---|']
    for r in steady + stressed:
        f = figures(r)
        lines.append(f'| {r["run"]} | {f["accepted"]:,} of {f["planned"]:,} | {f["stored"]:,} | '
                     f'{" / ".join(ms(f["post"][p]) for p in ("p50", "p95", "p99"))} | '
                     f'{" / ".join(ms(f["timeLapse"][p]) for p in ("p50", "p95", "p99"))} | '
                     f'{"ok" if not r["failedThresholds"] else "FAILED: " + ", ".join(r["failedThresholds"])} |')
    lines += ['', '## Slowdown under stress', '', '| figure (ms) | unstressed, mean ± sd | stressed, mean ± sd | slowdown |',
              '|---|---|---|---|']
    for s in slowdown:
        factor = f'{s["slowdown"]:.2f}x' if s['slowdown'] else 'n/a'
        lines.append(f'| {s["figure"]} | {fmt_spread(s["unstressed"])} | {fmt_spread(s["stressed"])} | {factor} |')
    lines += ['', '## Seed 002', '',
              'Kafka on Mesos (3 n1-standard-4 brokers, 10 KB messages, 1 partition replicated to every broker): the '
              'baseline overloaded after 850 s at two clients x 700 msg/s, so 50 % was 350 msg/s per client; the '
              'stress (`stress`, 98 % of memory over 4 threads, 10 GB of disk writes each) results were never '
              'reported ("running at the moment"), and no variance was given although the experiments were '
              '"performed multiple times".', '',
              'Everything here (stack, k6, stress-ng) shares one machine; each k6 run has its own directory with its '
              'report, summary and HTML dashboard.', '']
    with open(os.path.join(directory, 'capacity-report.md'), 'w') as f:
        f.write('\n'.join(lines))
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
