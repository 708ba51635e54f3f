// Ingest behind a balancer: the closed-loop devices spread over two ingest addresses, the second of which refuses
// every connection (DEAD_INGEST_URL, by default a port nothing listens on), as an instance that died does. Each device
// homed there sends its uplink on to the first and keeps asking the dead one's readiness (k6/lib/instances.js), so
// every uplink must still be stored once and reach the subscriber, no device may see a failed request, and every
// device homed on the dead address fails over (at least those: the live instance may refuse one now and then, a
// reset connection or a 503, and the balancer sends that on too). Run: k6/run ingest-failover [--smoke]
import { INGEST_URL } from './lib/config.js';
import { makeSuite } from './lib/seed-suite.js';
import { reportFor, fmtInt, pct, spread } from './lib/report.js';

const DEAD_INGEST_URL = __ENV.DEAD_INGEST_URL || 'http://127.0.0.1:1';

const suite = makeSuite({
  name: 'ingest-failover', devices: [100, 20], iterations: [30, 5], closedLoop: true,
  ingestUrls: [INGEST_URL, DEAD_INGEST_URL],
  latencyP95: { time_lapse: [1000, 3000] },
});
const S = suite.size;
// Devices 1, 3, 5, ... (index 1, 3, ... of the two addresses) are homed on the dead one.
const HOMED_ON_DEAD = Math.floor(S.DEVICES / 2);

export const options = Object.assign({}, suite.options, {
  // The suite's own thresholds already hold every request to not failing (http_req_failed rate==0).
  thresholds: Object.assign({}, suite.options.thresholds, { ingest_failovers: [`count>=${HOMED_ON_DEAD}`] }),
});
export const setup = suite.setup;
export const teardown = suite.teardown;
export function subscribe(data) { suite.subscribe(data); }
export function ingestion(data) { suite.ingestion(data); }
export function consumption(data) { suite.consumption(data); }

export const handleSummary = reportFor('ingest-failover', {
  title: 'Ingest behind a balancer: one of two instances refuses',
  size: { DEVICES: S.DEVICES, ITERATIONS: S.ITERATIONS, INTERVAL: `${S.INTERVAL} s`, DEAD_INGEST_URL },
  header: ['figure', 'this run', 'expected'],
  rows: (m) => [
    ['uplinks answered 202', `${fmtInt(m.count('uplinks_accepted'))} of ${fmtInt(S.PLANNED)}`, fmtInt(S.PLANNED)],
    ['requests a device saw fail', `${fmtInt(m.passes('http_req_failed{scenario:ingestion}'))} ` +
      `(${pct(m.passes('http_req_failed{scenario:ingestion}'), m.count('http_reqs'))})`, '0'],
    ['uplinks refused and sent on to the other instance', fmtInt(m.count('ingest_failovers')), `≥ ${fmtInt(HOMED_ON_DEAD)}`],
    ['data units stored', fmtInt(m.count('data_units_stored')), fmtInt(S.PLANNED)],
    ['data units on the WebSocket', fmtInt(m.count('data_units_received')), fmtInt(S.PLANNED)],
    ['ingest POST p50 / p90 / p95 / p99 / max', spread(m, 'http_req_duration{scenario:ingestion}'), ''],
    ['time_lapse p50 / p90 / p95 / p99 / max', spread(m, 'time_lapse'), ''],
  ],
  notes: ['The POST figures include the refused attempts (no server answered them) and the readiness checks.'],
});
