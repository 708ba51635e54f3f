// Seed 003 "Test Suite 1", shared by suite1-throughput.js (open loop) and suite1-closed-loop.js (the seed's own
// closed-loop shape): the same uplinks, checks and report, only the way k6 offers them differs.
import { makeSuite } from './seed-suite.js';
import { reportFor, fmtInt, pct, spread } from './report.js';
import { SUITE1 } from './seeds.js';

export function suite1(closedLoop) {
  const name = closedLoop ? 'suite1-closed-loop' : 'suite1-throughput';
  const suite = makeSuite({
    name, devices: [500, 20], iterations: [60, 5], closedLoop,
    latencyP95: { time_lapse: [1000, 3000] },
  });
  const S = suite.size;
  const handleSummary = reportFor(name, {
    title: closedLoop ? 'Suite 1, closed loop: latency in the seed\'s own shape (seed 003 "Test Suite 1")'
      : 'Suite 1: throughput (seed 003 "Test Suite 1")',
    size: { DEVICES: S.DEVICES, ITERATIONS: S.ITERATIONS, INTERVAL: `${S.INTERVAL} s`, BATCH: S.BATCH },
    header: ['figure', 'this run', 'seed 003, local', 'seed 003, e2-standard-4'],
    rows: (m) => [
      ['setup', closedLoop
        ? `${fmtInt(S.DEVICES)} closed-loop VUs x ${S.ITERATIONS} iterations: POST one uplink, then sleep ${S.INTERVAL} s`
        : `${fmtInt(S.DEVICES)} devices x ${S.ITERATIONS} uplinks every ${S.INTERVAL} s, ` +
          (S.BATCH > 1 ? `${fmtInt(S.DEVICES / S.BATCH)} gateways posting batches of ${S.BATCH}` : 'one encoded POST per uplink'),
        SUITE1.setup, SUITE1.setup],
      ['HTTP requests (all, per s over the whole run)', `${fmtInt(m.count('http_reqs'))} (${m.rate('http_reqs').toFixed(1)}/s)`,
        `${SUITE1.local.requests} (${SUITE1.local.reqRate})`, `${SUITE1.e2.requests} (${SUITE1.e2.reqRate})`],
      [closedLoop ? 'uplinks accepted per s (planned pace)' : 'uplinks accepted per s while sending',
        `${fmtInt(m.count('uplinks_accepted') / S.INGEST_SECONDS)}/s`,
        '30,000 in 2 m 38.8 s = 189/s', '30,000 in 1 m 44.6 s = 287/s'],
      ['failed requests', `${fmtInt(m.passes('http_req_failed'))} (${pct(m.passes('http_req_failed'), m.count('http_reqs'))})`,
        SUITE1.local.failed, SUITE1.e2.failed],
      ['uplinks answered 202', `${fmtInt(m.count('uplinks_accepted'))} of ${fmtInt(S.PLANNED)} (${pct(m.count('uplinks_accepted'), S.PLANNED)})`,
        SUITE1.local.status202, SUITE1.e2.status202],
      ...(closedLoop ? [] : [['uplinks k6 could not send in time (load generator behind)',
        fmtInt(S.PLANNED - m.count('uplinks_accepted') - S.BATCH * m.passes('http_req_failed{scenario:ingestion}')), '', '']]),
      ['ingest POST p50 / p90 / p95 / p99 / max', spread(m, 'http_req_duration{scenario:ingestion}'),
        `p95 ${SUITE1.local.httpP95}, max ${SUITE1.local.httpMax}`, `p95 ${SUITE1.e2.httpP95}, max ${SUITE1.e2.httpMax}`],
      ['data units stored (Expected; Actual)', `${fmtInt(S.PLANNED)}; ${fmtInt(m.count('data_units_stored'))}`,
        SUITE1.local.stored, SUITE1.e2.stored],
      ['data units on the WebSocket (Expected; Actual)', `${fmtInt(S.PLANNED)}; ${fmtInt(m.count('data_units_received'))}`,
        SUITE1.local.received, SUITE1.e2.received],
      ['time_lapse p50 / p90 / p95 / p99 / max', spread(m, 'time_lapse'), 'not measured', 'not measured'],
      ['messages the server dropped for the subscriber', fmtInt(m.count('ws_dropped')), '', ''],
    ],
    notes: [closedLoop
      ? 'Closed loop, as the seed ran it: each VU waits for its answer before sleeping, so the offered load falls when ' +
        'answers slow down; k6/run suite1-throughput offers the same uplinks open-loop. Run it right after ./pipeline run ' +
        'for the cold figures, and again for the warm ones.'
      : 'The seed ran 500 closed-loop VUs (each POST, then a pause); this suite offers the same uplinks open-loop ' +
        '(k6 constant-arrival-rate, device = iteration mod DEVICES), so a slow answer cannot lower the offered load.'],
  });
  return { suite, handleSummary };
}
