// Suite 2, alarms (seed 003 "Test Suite 2"): one rule, temperature > 30, is created right before sending (the seed
// waited 2-6 minutes for its rules to apply); 100 devices post one EM300-TH uplink per second for 100 iterations;
// exactly 10 % of the uplinks are hot, each one after nine cold ones of its device, so each raises one new alarm.
// time_lapse = alarm raisedAt -> WebSocket receipt; time_lapse_full = the hot uplink's receivedAt at ingest ->
// WebSocket receipt. Every expected alarm must arrive on the WebSocket and be listed by GET /alarms; the rule is
// deleted at the end. Run: k6/run suite2-alarms [--smoke]
import { makeSuite } from './lib/seed-suite.js';
import { reportFor, fmtInt, fmtMs, pct } from './lib/report.js';
import { SUITE2 as SEED } from './lib/seeds.js';

const suite = makeSuite({
  name: 'suite2-alarms', devices: [100, 20], iterations: [100, 10], alarms: true,
  latencyP95: { time_lapse_full: [30, 3000] },
});
const S = suite.size;

export const options = suite.options;
export const setup = suite.setup;
export const teardown = suite.teardown;
export function subscribe(data) { suite.subscribe(data); }
export function ingestion(data) { suite.ingestion(data); }
export function consumption(data) { suite.consumption(data); }

const t = (m, name, stat) => fmtMs(m.trend(name, stat));

export const handleSummary = reportFor('suite2-alarms', {
  title: 'Suite 2: alarms (seed 003 "Test Suite 2")',
  size: { DEVICES: S.DEVICES, ITERATIONS: S.ITERATIONS, INTERVAL: `${S.INTERVAL} s`, ALARMS: S.EXPECTED_ALARMS },
  header: ['figure', 'this run', 'seed 003, local', 'seed 003, e2-standard-4'],
  rows: (m) => [
    ['setup', `${fmtInt(S.DEVICES)} devices x ${S.ITERATIONS} uplinks every ${S.INTERVAL} s, 1 rule matching 10 %, created right before sending`,
      SEED.setup, SEED.setup],
    ['HTTP requests per s (whole run)', `${m.rate('http_reqs').toFixed(1)}/s`, SEED.local.reqRate, SEED.e2.reqRate],
    ['failed requests', `${fmtInt(m.passes('http_req_failed'))} (${pct(m.passes('http_req_failed'), m.count('http_reqs'))})`,
      SEED.local.failed, SEED.e2.failed],
    ['uplinks k6 could not send in time (load generator behind)', fmtInt(S.PLANNED - m.count('uplinks_accepted') - S.BATCH * m.passes('http_req_failed{scenario:ingestion}')), '', ''],
    ['Expected; Actual (alarms on the WebSocket)',
      `${fmtInt(S.EXPECTED_ALARMS)}; ${fmtInt(m.count('alarms_received'))} (${pct(m.count('alarms_received'), S.EXPECTED_ALARMS)})`,
      `${SEED.local.expected}; ${SEED.local.actual}`, `${SEED.e2.expected}; ${SEED.e2.actual}`],
    ['alarms stored (GET /alarms)', `${fmtInt(m.count('alarms_stored'))} of ${fmtInt(Math.min(S.EXPECTED_ALARMS, 1000))}`,
      SEED.local.stored, SEED.e2.stored],
    ['data units stored', `${fmtInt(m.count('data_units_stored'))} of ${fmtInt(S.PLANNED)}`, '', ''],
    ['time_lapse avg / med / p90 / p95 / p99 / max',
      ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'].map((s) => t(m, 'time_lapse', s)).join(' / '),
      [SEED.local.tlAvg, SEED.local.tlMed, SEED.local.tlP90, SEED.local.tlP95, '', SEED.local.tlMax].join(' / '), 'no alarm arrived'],
    ['time_lapse_full avg / med / p90 / p95 (target <= 30) / p99 / max',
      ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'].map((s) => t(m, 'time_lapse_full', s)).join(' / '),
      [SEED.local.tlfAvg, SEED.local.tlfMed, SEED.local.tlfP90, SEED.local.tlfP95, '', SEED.local.tlfMax].join(' / '), 'no alarm arrived'],
  ],
  notes: ['An alarm is raised once per (rule, device) while its condition holds and cleared by the next cold uplink, ' +
    'so the suite makes every hot uplink follow nine cold ones of the same device: the expected count is exact ' +
    '(10 % of the uplinks), not "about 10 %".'],
});
