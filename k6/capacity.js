// Capacity (seed 002). Two modes; k6/capacity.sh (k6/run capacity) drives them and adds stress-ng:
//   MODE=ramp   - single EM300-TH uplinks at START_RATE, START_RATE+STEP_RATE, ... up to MAX_RATE per second,
//                 STEP_SECONDS each (one constant-arrival-rate scenario per step, named rate_<R>). A step fails when a
//                 request fails, fewer than all its planned uplinks were accepted (k6 could not send them in time),
//                 the POST p99 exceeds HTTP_P99_MS or the end-to-end time_lapse p99 (receivedAt -> WebSocket) exceeds
//                 E2E_P99_MS. At full size the run aborts at the first failing step; the maximum sustainable rate is
//                 the step before it. Result: <REPORT_DIR>/capacity-result.json.
//   MODE=steady - RATE uplinks per second for DURATION seconds (the driver uses 50 % of the maximum), with every
//                 uplink stored and every probe delivered; the driver compares its latencies with and without stress.
// Latency is sampled end to end through PROBES probe devices (every PROBE_EVERY-th uplink) the subscriber filters
// on, so that one k6 WebSocket client does not become the bottleneck it would measure.
import exec from 'k6/execution';
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { param, seconds, runChannel, SMOKE } from './lib/presets.js';
import { REPORT_DIR } from './lib/config.js';
import { postEm300th, listen, storedCount, waitFor } from './lib/pipeline.js';
import { reportFor, fmtInt, fmtMs, metricsOf, spread } from './lib/report.js';
import { CAPACITY as SEED } from './lib/seeds.js';

const MODE = __ENV.MODE || 'ramp';
const START_RATE = param('START_RATE', 250, 20);
const STEP_RATE = param('STEP_RATE', 250, 20);
const MAX_RATE = param('MAX_RATE', 4000, 60);
const STEP_SECONDS = param('STEP_SECONDS', 10, 2);
const RATE = param('RATE', 500, 40);
const DURATION = param('DURATION', 60, 4);
const HTTP_P99_MS = param('HTTP_P99_MS', 100, 2000);
const E2E_P99_MS = param('E2E_P99_MS', 1000, 3000);
const PROBE_EVERY = param('PROBE_EVERY', 10, 1);
const PROBES = 5;
const DEVICES = 1000;
const START_DELAY = param('START_DELAY', 3, 1);
const DRAIN = param('DRAIN', 30, 20);
const STRESS = __ENV.STRESS || '';

const rates = [];
if (MODE === 'ramp') for (let r = START_RATE; r <= MAX_RATE; r += STEP_RATE) rates.push(r);
else if (MODE === 'steady') rates.push(RATE);
else throw new Error(`MODE must be ramp or steady, not ${MODE}`);
const stepSeconds = MODE === 'ramp' ? STEP_SECONDS : DURATION;
const planned = (rate) => Math.round(rate * stepSeconds);
const probesOf = (rate) => Math.ceil(planned(rate) / PROBE_EVERY);
const PLANNED = rates.reduce((sum, r) => sum + planned(r), 0);
const PLANNED_PROBES = rates.reduce((sum, r) => sum + probesOf(r), 0);
const RUN_SECONDS = rates.length * stepSeconds;
// Strict (every uplink stored and delivered) in steady mode and at smoke size; a full ramp goes past capacity on purpose.
const STRICT = MODE === 'steady' || SMOKE;

const accepted = new Counter('uplinks_accepted');
const probes = new Counter('probes_received');
const stored = new Counter('data_units_stored');
const timeLapse = new Trend('time_lapse', true);

const scenarios = {
  subscribe: {
    executor: 'shared-iterations', vus: 1, iterations: 1, exec: 'subscribe',
    maxDuration: seconds(START_DELAY + RUN_SECONDS + DRAIN + 30),
  },
};
const thresholds = {};
rates.forEach((rate, i) => {
  const name = `rate_${rate}`;
  scenarios[name] = {
    executor: 'constant-arrival-rate', exec: 'uplink', startTime: seconds(START_DELAY + i * stepSeconds),
    rate, timeUnit: '1s', duration: seconds(stepSeconds), gracefulStop: '5s',
    // Steps do not overlap (but for their graceful stop), so k6 reuses these VUs from one step to the next.
    preAllocatedVUs: Math.max(50, Math.ceil(rate / 8)), maxVUs: Math.max(100, Math.ceil(rate / 2)),
  };
  const abort = !STRICT && MODE === 'ramp';
  thresholds[`http_req_failed{scenario:${name}}`] = [{ threshold: 'rate==0', abortOnFail: abort }];
  // k6 may count the one iteration it schedules at the very end of a step as dropped; more means it could not send
  // the offered rate in time (the accepted count below is exact).
  thresholds[`dropped_iterations{scenario:${name}}`] = [{ threshold: 'count<=1', abortOnFail: abort }];
  thresholds[`http_req_duration{scenario:${name}}`] = [{ threshold: `p(99)<=${HTTP_P99_MS}`, abortOnFail: abort }];
  thresholds[`time_lapse{step:${name}}`] = [{ threshold: `p(99)<=${E2E_P99_MS}`, abortOnFail: abort }];
  thresholds[`uplinks_accepted{scenario:${name}}`] = ['count>=0'];
  thresholds[`probes_received{step:${name}}`] = ['count>=0'];
});
if (STRICT) {
  scenarios.consumption = {
    executor: 'shared-iterations', vus: 1, iterations: 1, exec: 'consumption',
    startTime: seconds(START_DELAY + RUN_SECONDS + 1), maxDuration: seconds(DRAIN + 30),
  };
  Object.assign(thresholds, {
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
    ws_dropped: ['count==0'],
    uplinks_accepted: [`count==${PLANNED}`],
    probes_received: [`count==${PLANNED_PROBES}`],
    data_units_stored: [`count==${PLANNED}`],
  });
}

export const options = { scenarios, thresholds, summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'] };

export function setup() {
  const channel = runChannel(`capacity-${MODE}`);
  console.log(`capacity ${MODE}: channel ${channel}, rates ${rates.join(', ')}/s, ${stepSeconds} s each` + (STRESS ? `, stress: ${STRESS}` : ''));
  return { channel, start: Date.now() };
}

export function uplink(data) {
  const k = exec.scenario.iterationInTest;
  const rate = exec.scenario.name.slice('rate_'.length);
  if (k >= planned(Number(rate))) return;
  const deviceId = k % PROBE_EVERY === 0 ? `probe-${(k / PROBE_EVERY) % PROBES}` : `capacity-${k % DEVICES}`;
  const res = postEm300th(data.channel, deviceId, 20 + (k % 50) / 10);
  if (check(res, { 'status was 202': (r) => r.status === 202 })) accepted.add(1);
}

export function subscribe(data) {
  const seen = new Set();
  const rampStart = data.start + START_DELAY * 1000;
  const filters = [];
  for (let p = 0; p < PROBES; p++) filters.push({ deviceId: `probe-${p}` });
  listen({
    channel: data.channel,
    filters,
    dataUnits: (unit, receipt) => {
      if (seen.has(unit.id)) return;
      seen.add(unit.id);
      const received = Date.parse(unit.receivedAt);
      const i = Math.max(0, Math.min(rates.length - 1, Math.floor((received - rampStart) / (stepSeconds * 1000))));
      const step = `rate_${rates[i]}`;
      probes.add(1, { step });
      timeLapse.add(receipt - received, { step });
    },
    done: () => seen.size >= PLANNED_PROBES,
    deadlineMs: data.start + (START_DELAY + RUN_SECONDS + (STRICT ? DRAIN : 10)) * 1000,
  });
  if (STRICT) check(seen.size, { 'probes were all received': (n) => n === PLANNED_PROBES });
}

export function consumption(data) {
  const count = waitFor(() => storedCount(data.channel), PLANNED, DRAIN, 10);
  stored.add(Math.max(count, 0));
  console.log(`Expected: ${PLANNED}; Stored: ${count} (data units counted by GET /data-units/count)`);
  check(count, { 'data units were all stored': (n) => n === PLANNED });
}

// Per step: what was offered and achieved, and why it failed if it did.
function steps(data) {
  const m = metricsOf(data);
  const out = [];
  rates.forEach((rate, index) => {
    const name = `rate_${rate}`;
    // A full ramp aborts inside the failing step: its shortfall of accepted uplinks is the abort, not a finding.
    const complete = data.state.testRunDurationMs >= (START_DELAY + (index + 1) * stepSeconds) * 1000;
    const sent = m.count(`http_reqs{scenario:${name}}`) || m.count(`uplinks_accepted{scenario:${name}}`);
    const acc = m.count(`uplinks_accepted{scenario:${name}}`);
    const reached = acc > 0 || m.passes(`http_req_failed{scenario:${name}}`) + m.fails(`http_req_failed{scenario:${name}}`) > 0;
    const failedRequests = m.passes(`http_req_failed{scenario:${name}}`);
    const dropped = m.count(`dropped_iterations{scenario:${name}}`);
    const http = (s) => m.trend(`http_req_duration{scenario:${name}}`, s);
    const tl = (s) => (m.count(`probes_received{step:${name}}`) > 0 ? m.trend(`time_lapse{step:${name}}`, s) : undefined);
    const reasons = [];
    if (reached) {
      if (failedRequests > 0) reasons.push(`${failedRequests} failed requests`);
      if (acc < planned(rate) && complete) reasons.push(`${acc} of ${planned(rate)} accepted`);
      if (!complete) reasons.push('the ramp stopped in this step');
      if (http('p(99)') > HTTP_P99_MS) reasons.push(`POST p99 ${fmtMs(http('p(99)'))} ms > ${HTTP_P99_MS}`);
      if (tl('p(99)') === undefined) reasons.push('no probe delivered');
      else if (tl('p(99)') > E2E_P99_MS) reasons.push(`time_lapse p99 ${fmtMs(tl('p(99)'))} ms > ${E2E_P99_MS}`);
    }
    out.push({
      rate, reached, planned: planned(rate), sent, accepted: acc, achieved: acc / stepSeconds, failedRequests, dropped,
      http: { p50: http('med'), p95: http('p(95)'), p99: http('p(99)'), max: http('max') },
      timeLapse: { p50: tl('med'), p95: tl('p(95)'), p99: tl('p(99)'), max: tl('max') },
      probes: m.count(`probes_received{step:${name}}`), ok: reached && reasons.length === 0, reasons,
    });
  });
  return out;
}

function result(data) {
  const s = steps(data);
  const firstFailing = s.find((x) => x.reached && !x.ok) || null;
  const passed = s.filter((x) => x.ok && (!firstFailing || x.rate < firstFailing.rate));
  return {
    mode: MODE, stress: STRESS, smoke: SMOKE, httpP99Bound: HTTP_P99_MS, e2eP99Bound: E2E_P99_MS, stepSeconds,
    maxSustainable: passed.length ? passed[passed.length - 1].rate : 0,
    belowFirstFailing: !!firstFailing, firstFailing, steps: s,
    stored: metricsOf(data).count('data_units_stored'), planned: PLANNED,
  };
}

const summary = reportFor(`capacity-${MODE}`, {
  title: MODE === 'ramp' ? 'Capacity: ramp to the maximum sustainable rate (seed 002)'
    : `Capacity: steady run at ${RATE} uplinks/s${STRESS ? ` under stress (${STRESS})` : ''} (seed 002)`,
  size: MODE === 'ramp'
    ? { START_RATE, STEP_RATE, MAX_RATE, STEP_SECONDS, HTTP_P99_MS, E2E_P99_MS, PROBE_EVERY }
    : { RATE, DURATION, PROBE_EVERY, STRESS: STRESS || 'none' },
  header: ['offered/s', 'achieved/s', 'failed', 'POST p50 / p90 / p95 / p99 / max', 'time_lapse p50 / p90 / p95 / p99 / max', 'verdict'],
  rows: (m, data) => steps(data).filter((x) => x.reached).map((x) => [
    fmtInt(x.rate), x.achieved.toFixed(1), fmtInt(x.failedRequests),
    spread(m, `http_req_duration{scenario:rate_${x.rate}}`),
    x.probes > 0 ? spread(m, `time_lapse{step:rate_${x.rate}}`) : 'no probe', x.ok ? 'ok' : x.reasons.join('; '),
  ]),
  sections: (m, data) => {
    const r = result(data);
    const lines = [];
    if (MODE === 'ramp') {
      lines.push(`**Maximum sustainable rate:** ${r.maxSustainable ? `${fmtInt(r.maxSustainable)} uplinks/s` : 'none of the steps'}` +
        (r.firstFailing ? ` (first failing step: ${fmtInt(r.firstFailing.rate)}/s, ${r.firstFailing.reasons.join('; ')})` : ` (no step failed up to ${fmtInt(MAX_RATE)}/s)`));
    } else {
      lines.push(`**Stored:** ${fmtInt(r.stored)} of ${fmtInt(PLANNED)}; probes delivered ${fmtInt(m.count('probes_received'))} of ${fmtInt(PLANNED_PROBES)}.`);
    }
    lines.push(`**Seed 002** (Kafka on Mesos, 3 brokers): maximum ${SEED.max}; 50 % point ${SEED.half}; under stress: ${SEED.stressed}.`);
    return lines;
  },
});

export function handleSummary(data) {
  const out = summary(data);
  out[`${REPORT_DIR}/capacity-${MODE}-result.json`] = JSON.stringify(result(data), null, 2);
  return out;
}
