// handleSummary helper: the k6 JSON summary to REPORT_DIR plus a short plain-text digest on stdout.
import { REPORT_DIR } from './config.js';

/** One line per metric (and per threshold) for the console. */
export function digest(data) {
  const lines = [];
  for (const [name, metric] of Object.entries(data.metrics)) {
    const v = metric.values;
    if (metric.type === 'trend') {
      lines.push(`${name}: avg=${v.avg.toFixed(1)} med=${v.med.toFixed(1)} p(90)=${v['p(90)'].toFixed(1)} p(95)=${v['p(95)'].toFixed(1)}${v['p(99)'] === undefined ? '' : ` p(99)=${v['p(99)'].toFixed(1)}`} max=${v.max.toFixed(1)}`);
    } else if (metric.type === 'rate') {
      lines.push(`${name}: ${(v.rate * 100).toFixed(2)}% (${v.passes} of ${v.passes + v.fails})`);
    } else if (metric.type === 'counter') {
      lines.push(`${name}: ${v.count} (${v.rate.toFixed(1)}/s)`);
    }
    if (metric.thresholds) {
      for (const [expr, result] of Object.entries(metric.thresholds)) {
        lines.push(`  threshold ${expr}: ${result.ok ? 'ok' : 'FAILED'}`);
      }
    }
  }
  return lines.join('\n') + '\n';
}

export function summaryFor(suite) {
  return (data) => ({
    stdout: `\n== ${suite} ==\n` + digest(data),
    [`${REPORT_DIR}/${suite}-summary.json`]: JSON.stringify(data, null, 2),
  });
}
