// Suite 1 in the seed's own closed-loop shape (seed 003 "Test Suite 1"): a WebSocket subscriber connects first;
// DEVICES VUs (500), one per device, each POST one EM300-TH uplink, wait for the answer, sleep INTERVAL (1 s), and
// do that ITERATIONS times (60); then every data unit must be stored and must have reached the subscriber. What
// real gateways do: a slow answer delays the next uplink instead of piling up. time_lapse = the uplink's
// receivedAt at ingest -> WebSocket receipt. Run: k6/run suite1-closed-loop [--smoke]   (or k6 run -e DEVICES=5000 k6/suite1-closed-loop.js)
import { makeSuite } from './lib/seed-suite.js';
import { reportFor, fmtInt, pct, spread } from './lib/report.js';
import { SUITE1 } from './lib/seeds.js';

const suite = makeSuite({
  name: 'suite1-closed-loop', devices: [500, 20], iterations: [60, 5], closedLoop: true,
  latencyP95: { time_lapse: [1000, 3000] },
});
const S = suite.size;

export const options = suite.options;
export const setup = suite.setup;
export const teardown = suite.teardown;
export function subscribe(data) { suite.subscribe(data); }
export function ingestion(data) { suite.ingestion(data); }
export function consumption(data) { suite.consumption(data); }

export const handleSummary = reportFor('suite1-closed-loop', {
  title: 'Suite 1, closed loop: latency in the seed\'s own shape (seed 003 "Test Suite 1")',
  size: { DEVICES: S.DEVICES, ITERATIONS: S.ITERATIONS, INTERVAL: `${S.INTERVAL} s`, BATCH: S.BATCH },
  header: ['figure', 'this run', 'seed 003, local', 'seed 003, e2-standard-4'],
  rows: (m) => [
    ['setup', `${fmtInt(S.DEVICES)} closed-loop VUs x ${S.ITERATIONS} iterations: POST one uplink, then sleep ${S.INTERVAL} s`,
      SUITE1.setup, SUITE1.setup],
    ['HTTP requests (all, per s over the whole run)', `${fmtInt(m.count('http_reqs'))} (${m.rate('http_reqs').toFixed(1)}/s)`,
      `${SUITE1.local.requests} (${SUITE1.local.reqRate})`, `${SUITE1.e2.requests} (${SUITE1.e2.reqRate})`],
    ['uplinks accepted per s (planned pace)', `${fmtInt(m.count('uplinks_accepted') / S.INGEST_SECONDS)}/s`,
      '30,000 in 2 m 38.8 s = 189/s', '30,000 in 1 m 44.6 s = 287/s'],
    ['failed requests', `${fmtInt(m.passes('http_req_failed'))} (${pct(m.passes('http_req_failed'), m.count('http_reqs'))})`,
      SUITE1.local.failed, SUITE1.e2.failed],
    ['uplinks answered 202', `${fmtInt(m.count('uplinks_accepted'))} of ${fmtInt(S.PLANNED)} (${pct(m.count('uplinks_accepted'), S.PLANNED)})`,
      SUITE1.local.status202, SUITE1.e2.status202],
    ['ingest POST p50 / p90 / p95 / p99 / max', spread(m, 'http_req_duration{scenario:ingestion}'),
      `p95 ${SUITE1.local.httpP95}, max ${SUITE1.local.httpMax}`, `p95 ${SUITE1.e2.httpP95}, max ${SUITE1.e2.httpMax}`],
    ['data units stored (Expected; Actual)', `${fmtInt(S.PLANNED)}; ${fmtInt(m.count('data_units_stored'))}`,
      SUITE1.local.stored, SUITE1.e2.stored],
    ['data units on the WebSocket (Expected; Actual)', `${fmtInt(S.PLANNED)}; ${fmtInt(m.count('data_units_received'))}`,
      SUITE1.local.received, SUITE1.e2.received],
    ['time_lapse p50 / p90 / p95 / p99 / max', spread(m, 'time_lapse'), 'not measured', 'not measured'],
    ['messages the server dropped for the subscriber', fmtInt(m.count('ws_dropped')), '', ''],
  ],
  notes: ['Closed loop, as the seed ran it: each VU waits for its answer before sleeping, so the offered load falls when ' +
    'answers slow down; k6/run suite1-throughput offers the same uplinks open-loop. Run it right after ./pipeline run ' +
    'for the cold figures, and again for the warm ones.'],
});
