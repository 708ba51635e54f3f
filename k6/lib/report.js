// handleSummary for the suites: the k6 JSON summary and a Markdown report (this run's figures next to the seed's)
// into REPORT_DIR, and a plain-text digest on stdout. k6/run sets REPORT_DIR to the run's own directory and
// passes the command line and machine in RUN_COMMAND and MACHINE.
import { REPORT_DIR, INGEST_URL, NOTIFY_URL } from './config.js';
import { digest } from './summary.js';
import { SMOKE } from './presets.js';

// Read access to the summary's metrics that tolerates a metric with no samples.
export function metricsOf(data) {
  const get = (name) => data.metrics[name];
  return {
    has: (name) => !!get(name),
    count: (name) => (get(name) ? get(name).values.count : 0),
    rate: (name) => (get(name) ? get(name).values.rate : undefined),
    passes: (name) => (get(name) ? get(name).values.passes : 0),
    fails: (name) => (get(name) ? get(name).values.fails : 0),
    trend: (name, stat) => (get(name) ? get(name).values[stat] : undefined),
  };
}

export function fmtInt(n) {
  if (n === undefined || n === null || Number.isNaN(n)) return 'n/a';
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function fmtMs(n) {
  if (n === undefined || n === null || Number.isNaN(n)) return 'n/a';
  if (n >= 100) return fmtInt(n);
  return n.toFixed(n >= 10 ? 1 : 2);
}

export function pct(part, whole) {
  if (!whole) return 'n/a';
  return `${((100 * part) / whole).toFixed(part === whole ? 0 : 2)} %`;
}

// "p50 / p90 / p95 / p99 / max" of a trend in ms, as one cell.
export function spread(m, name) {
  if (!m.has(name)) return 'n/a';
  return ['med', 'p(90)', 'p(95)', 'p(99)', 'max'].map((s) => fmtMs(m.trend(name, s))).join(' / ');
}

function thresholdLines(data) {
  const out = [];
  for (const [name, metric] of Object.entries(data.metrics)) {
    for (const [expr, result] of Object.entries(metric.thresholds || {})) {
      if (expr.endsWith('>=0')) continue; // only there to have k6 keep a sub-metric
      out.push({ name, expr, ok: result.ok });
    }
  }
  return out;
}

function table(header, rows) {
  const esc = (c) => String(c === undefined ? '' : c).replace(/\|/g, '\\|');
  return [
    `| ${header.map(esc).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

// spec: { title, size: {name: value}, header: [...], rows: (m, data) => [[...]], sections: (m, data) => [markdown],
//         notes: [markdown] }
export function markdown(suite, spec, data) {
  const m = metricsOf(data);
  const thresholds = thresholdLines(data);
  const failed = thresholds.filter((t) => !t.ok);
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const lines = [];
  lines.push(`# ${spec.title}${SMOKE ? ' (smoke size)' : ''}`, '');
  lines.push(`- **Run:** ${when}, ${(data.state.testRunDurationMs / 1000).toFixed(1)} s`);
  if (__ENV.RUN_COMMAND) lines.push(`- **Command:** \`${__ENV.RUN_COMMAND}\``);
  if (__ENV.MACHINE) lines.push(`- **Machine:** ${__ENV.MACHINE}`);
  lines.push(`- **Target:** ingest ${INGEST_URL}, notify ${NOTIFY_URL}`);
  lines.push(`- **Size:** ${Object.entries(spec.size).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  lines.push(`- **Thresholds:** ${failed.length === 0 ? `all ${thresholds.length} passed` : `${failed.length} of ${thresholds.length} FAILED`}`);
  lines.push('');
  lines.push(table(spec.header, spec.rows(m, data)));
  lines.push('');
  for (const section of spec.sections ? spec.sections(m, data) : []) lines.push(section, '');
  lines.push('Latencies in ms; "p50 / p90 / p95 / p99 / max" cells list those percentiles. The k6 load generator');
  lines.push('runs on the same machine as the stack it measures, and its clock is the one every latency is read on.');
  lines.push('');
  lines.push('## Thresholds', '');
  lines.push(table(['metric', 'threshold', 'result'], thresholds.map((t) => [t.name, t.expr, t.ok ? 'ok' : '**FAILED**'])));
  lines.push('');
  for (const note of spec.notes || []) lines.push(note, '');
  return lines.join('\n');
}

export function reportFor(suite, spec) {
  return (data) => {
    const md = markdown(suite, spec, data);
    return {
      stdout: `\n== ${suite} ==\n` + digest(data) + '\n' + md + '\n',
      [`${REPORT_DIR}/${suite}-summary.json`]: JSON.stringify(data, null, 2),
      [`${REPORT_DIR}/${suite}-report.md`]: md,
    };
  };
}
