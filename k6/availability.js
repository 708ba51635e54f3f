// Availability (seed 003): 100 devices post one EM300-TH uplink per second for 100 iterations while one WebSocket
// subscriber listens; time_lapse per data unit (receivedAt at ingest -> WebSocket receipt), and the seed's
// "Expected: 10000; Actual: 10000" line. The full-size threshold is the target, time_lapse p95 <= 20 ms.
// Run: k6/run availability [--smoke]
import { makeSuite } from './lib/seed-suite.js';
import { reportFor, fmtInt, fmtMs, pct, spread } from './lib/report.js';
import { AVAILABILITY as SEED } from './lib/seeds.js';

const suite = makeSuite({
  name: 'availability', devices: [100, 10], iterations: [100, 10],
  latencyP95: { time_lapse: [20, 3000] },
});
const S = suite.size;

export const options = suite.options;
export const setup = suite.setup;
export const teardown = suite.teardown;
export function subscribe(data) { suite.subscribe(data); }
export function ingestion(data) { suite.ingestion(data); }
export function consumption(data) { suite.consumption(data); }

const tl = (m, stat) => fmtMs(m.trend('time_lapse', stat));

export const handleSummary = reportFor('availability', {
  title: 'Availability (seed 003 "Availability Test")',
  size: { DEVICES: S.DEVICES, ITERATIONS: S.ITERATIONS, INTERVAL: `${S.INTERVAL} s` },
  header: ['figure', 'this run', 'seed 003, local', 'seed 003, e2-standard-4'],
  rows: (m) => [
    ['setup', `${fmtInt(S.DEVICES)} devices x ${S.ITERATIONS} uplinks every ${S.INTERVAL} s`, SEED.setup, SEED.setup],
    ['HTTP requests per s (whole run)', `${m.rate('http_reqs').toFixed(1)}/s`, SEED.local.reqRate, SEED.e2.reqRate],
    ['failed requests', `${fmtInt(m.passes('http_req_failed'))} (${pct(m.passes('http_req_failed'), m.count('http_reqs'))})`,
      SEED.local.failed, SEED.e2.failed],
    ['uplinks k6 could not send in time (load generator behind)', fmtInt(S.PLANNED - m.count('uplinks_accepted') - S.BATCH * m.passes('http_req_failed{scenario:ingestion}')), '', ''],
    ['ingest POST p95', fmtMs(m.trend('http_req_duration{scenario:ingestion}', 'p(95)')), SEED.local.httpP95, SEED.e2.httpP95],
    ['Expected; Actual (data units on the WebSocket)', `${fmtInt(S.PLANNED)}; ${fmtInt(m.count('data_units_received'))}`,
      `${SEED.local.expected}; ${SEED.local.actual}`, `${SEED.e2.expected}; ${SEED.e2.actual}`],
    ['data units stored', `${fmtInt(m.count('data_units_stored'))} of ${fmtInt(S.PLANNED)}`, 'check passed', 'check passed'],
    ['time_lapse avg', tl(m, 'avg'), SEED.local.tlAvg, SEED.e2.tlAvg],
    ['time_lapse med', tl(m, 'med'), SEED.local.tlMed, SEED.e2.tlMed],
    ['time_lapse p90', tl(m, 'p(90)'), SEED.local.tlP90, SEED.e2.tlP90],
    ['time_lapse p95 (target <= 20)', tl(m, 'p(95)'), SEED.local.tlP95, SEED.e2.tlP95],
    ['time_lapse p99', tl(m, 'p(99)'), '', ''],
    ['time_lapse max', tl(m, 'max'), SEED.local.tlMax, SEED.e2.tlMax],
    ['messages the server dropped for the subscriber', fmtInt(m.count('ws_dropped')), '', ''],
  ],
  notes: ['time_lapse is read on one clock: the server stamps receivedAt when ingest accepts the uplink, k6 takes the ' +
    'receipt time on the same machine (millisecond resolution).'],
});
