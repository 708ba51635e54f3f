// Many devices at a low rate, with a join (seed 001, "500 bytes / 3000 clients, with X clients added later"):
// DEVICES devices (3,000) each post a ~500-byte decoded uplink every PERIOD seconds (6 s, 1/6 Hz) through three
// phases of PHASE seconds: steady; join, when DEVICES/6 more devices arrive all at once (their first uplinks hit
// together) and post at the same rate; after, when they have left again. Every uplink must be stored and reach
// the WebSocket subscriber; time_lapse and the POST latency are kept per phase (tag `phase`), and the run checks
// that the system came back to its steady state: in the second half of `after`, time_lapse p50 and p95 are within
// 1.5x + 5 ms and 2x + 20 ms of steady's (a check that fails the full-size run; reported only at smoke size).
// Run: k6/run many-devices [--smoke]
import exec from 'k6/execution';
import { check, sleep } from 'k6';
import { Counter, Trend, Rate } from 'k6/metrics';
import { param, seconds, runChannel, SMOKE } from './lib/presets.js';
import { postDecoded, listen, storedCount, waitFor, noLossThresholds } from './lib/pipeline.js';
import { reportFor, fmtInt, fmtMs, spread } from './lib/report.js';
import { MANY_DEVICES as SEED } from './lib/seeds.js';

const DEVICES = param('DEVICES', 3000, 60);
const JOINERS = param('JOINERS', Math.ceil(DEVICES / 6), Math.ceil(DEVICES / 6));
const PERIOD = param('PERIOD', 6, 1); // seconds between one device's uplinks
const PHASE = param('PHASE', 60, 3); // seconds per phase; a multiple of PERIOD
const PAYLOAD_BYTES = param('PAYLOAD_BYTES', 500, 500);
const START_DELAY = param('START_DELAY', 3, 1);
const DRAIN = param('DRAIN', 60, 20);
const PER_PHASE = Math.round((DEVICES * PHASE) / PERIOD); // base uplinks per phase
const JOIN_ITERATIONS = Math.round(PHASE / PERIOD);
const PLANNED = 3 * PER_PHASE + JOINERS * JOIN_ITERATIONS;
const PHASES = ['steady', 'join', 'after'];

const accepted = new Counter('uplinks_accepted');
const received = new Counter('data_units_received');
const duplicates = new Counter('data_units_duplicates');
const stored = new Counter('data_units_stored');
const timeLapse = new Trend('time_lapse', true);
const recovered = new Rate('recovered');

const thresholds = {
  ...noLossThresholds(PLANNED),
  data_units_received: [`count==${PLANNED}`],
};
for (const phase of PHASES) {
  thresholds[`time_lapse{phase:${phase}}`] = [`p(95)<=${param('TIME_LAPSE_P95', 1000, 3000)}`];
  thresholds[`http_req_duration{phase:${phase}}`] = ['p(99)>=0'];
  thresholds[`uplinks_accepted{phase:${phase}}`] = ['count>=0'];
}
if (!SMOKE) thresholds.recovered = ['rate==1'];

export const options = {
  scenarios: {
    subscribe: {
      executor: 'shared-iterations', vus: 1, iterations: 1, exec: 'subscribe',
      maxDuration: seconds(START_DELAY + 3 * PHASE + DRAIN + 30),
    },
    devices: {
      executor: 'constant-arrival-rate', exec: 'device', startTime: seconds(START_DELAY),
      rate: DEVICES, timeUnit: seconds(PERIOD), duration: seconds(3 * PHASE),
      // VUs for up to two seconds of requests in flight, so a stall of the box does not leave uplinks unsent.
      preAllocatedVUs: Math.max(50, Math.ceil(DEVICES / PERIOD)), maxVUs: Math.max(100, Math.ceil(2 * DEVICES / PERIOD)),
      gracefulStop: '30s',
    },
    join: {
      executor: 'per-vu-iterations', exec: 'joiner', startTime: seconds(START_DELAY + PHASE),
      vus: JOINERS, iterations: JOIN_ITERATIONS, maxDuration: seconds(PHASE + 30),
    },
    consumption: {
      executor: 'shared-iterations', vus: 1, iterations: 1, exec: 'consumption',
      startTime: seconds(START_DELAY + 3 * PHASE + 1), maxDuration: seconds(DRAIN + 30),
    },
  },
  thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

// ~PAYLOAD_BYTES of JSON per uplink: measurements plus a firmware blob in the attributes.
function body(deviceId, sequence, phase) {
  const b = {
    deviceId,
    measurements: { temperature: 20 + (sequence % 50) / 10, humidity: 40 + (sequence % 30), battery: 90, sequence, sentAt: Date.now() },
    attributes: { phase, firmware: '3.1.4', pad: '' },
  };
  const room = PAYLOAD_BYTES - JSON.stringify(b).length;
  if (room > 0) b.attributes.pad = 'x'.repeat(room);
  return b;
}

function post(data, deviceId, sequence, phase) {
  const res = postDecoded(data.channel, body(deviceId, sequence, phase), { phase });
  if (check(res, { 'status was 202': (r) => r.status === 202 })) accepted.add(1, { phase });
}

export function setup() {
  const channel = runChannel('many-devices');
  console.log(`many-devices: channel ${channel}, ${DEVICES} devices every ${PERIOD} s, ${JOINERS} join for ${PHASE} s, ` +
    `${PLANNED} uplinks of ~${PAYLOAD_BYTES} bytes`);
  return { channel, start: Date.now() };
}

export function device(data) {
  const k = exec.scenario.iterationInTest;
  if (k >= 3 * PER_PHASE) return;
  post(data, `device-${k % DEVICES}`, k, PHASES[Math.floor(k / PER_PHASE)]);
}

// A joining device posts at once (all joiners together: the join burst), then every PERIOD seconds.
export function joiner(data) {
  const started = Date.now();
  const id = __VU; // VU numbers are unique across scenarios
  post(data, `joiner-${id}`, exec.vu.iterationInScenario, 'join');
  const rest = PERIOD - (Date.now() - started) / 1000;
  if (rest > 0 && exec.vu.iterationInScenario < JOIN_ITERATIONS - 1) sleep(rest);
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function subscribe(data) {
  const seen = new Set();
  const steady = [];
  const settled = []; // second half of `after`
  const afterStart = data.start + (START_DELAY + 2 * PHASE) * 1000;
  listen({
    channel: data.channel,
    dataUnits: (unit, receipt) => {
      if (seen.has(unit.id)) { duplicates.add(1); return; }
      seen.add(unit.id);
      const phase = (unit.attributes && unit.attributes.phase) || 'unknown';
      const lapse = receipt - Date.parse(unit.receivedAt);
      received.add(1, { phase });
      timeLapse.add(lapse, { phase });
      if (phase === 'steady') steady.push(lapse);
      if (phase === 'after' && Date.parse(unit.receivedAt) >= afterStart + (PHASE * 1000) / 2) settled.push(lapse);
    },
    done: () => seen.size >= PLANNED,
    deadlineMs: data.start + (START_DELAY + 3 * PHASE + DRAIN) * 1000,
  });
  console.log(`Expected: ${PLANNED}; Actual: ${seen.size} (data units on the WebSocket)`);
  check(seen.size, { 'data units were all received': (n) => n === PLANNED });
  steady.sort((a, b) => a - b);
  settled.sort((a, b) => a - b);
  const s50 = percentile(steady, 50);
  const s95 = percentile(steady, 95);
  const a50 = percentile(settled, 50);
  const a95 = percentile(settled, 95);
  const ok = settled.length > 0 && a50 <= 1.5 * s50 + 5 && a95 <= 2 * s95 + 20;
  console.log(`time_lapse steady p50/p95 ${s50}/${s95} ms; settled after the join p50/p95 ${a50}/${a95} ms: ` +
    `${ok ? 'back to steady state' : 'NOT back to steady state'}`);
  recovered.add(ok);
}

export function consumption(data) {
  const count = waitFor(() => storedCount(data.channel), PLANNED, DRAIN, 15);
  stored.add(Math.max(count, 0));
  console.log(`Expected: ${PLANNED}; Stored: ${count} (data units counted by GET /data-units/count)`);
  check(count, { 'data units were all stored': (n) => n === PLANNED });
}

export const handleSummary = reportFor('many-devices', {
  title: 'Many devices at a low rate, with a join (seed 001)',
  size: { DEVICES, JOINERS, PERIOD: `${PERIOD} s`, PHASE: `${PHASE} s`, PAYLOAD_BYTES },
  header: ['figure', 'steady', 'join', 'after'],
  rows: (m) => [
    ['devices posting', fmtInt(DEVICES), `${fmtInt(DEVICES)} + ${fmtInt(JOINERS)} (joining at once)`, fmtInt(DEVICES)],
    ['offered uplinks/s', (DEVICES / PERIOD).toFixed(1), ((DEVICES + JOINERS) / PERIOD).toFixed(1), (DEVICES / PERIOD).toFixed(1)],
    ['uplinks accepted', ...PHASES.map((p) => fmtInt(m.count(`uplinks_accepted{phase:${p}}`)))],
    ['POST p50 / p90 / p95 / p99 / max', ...PHASES.map((p) => spread(m, `http_req_duration{phase:${p}}`))],
    ['time_lapse p50 / p90 / p95 / p99 / max', ...PHASES.map((p) => spread(m, `time_lapse{phase:${p}}`))],
  ],
  sections: (m) => [
    [`**All phases:** ${fmtInt(m.count('uplinks_accepted'))} of ${fmtInt(PLANNED)} uplinks accepted, ` +
      `${fmtInt(m.count('data_units_received'))} received on the WebSocket, ${fmtInt(m.count('data_units_stored'))} stored; ` +
      `${fmtInt(m.passes('http_req_failed'))} failed requests; ${fmtInt(m.count('ws_dropped'))} messages dropped by the server. ` +
      `Back to steady state after the join (second half of "after" against "steady"): ` +
      `${m.has('recovered') ? (m.rate('recovered') === 1 ? 'yes' : '**no**') : 'n/a'}.`].join(''),
    '**Seed 001** (mosquitto 1.2.3 beta, 2-CPU box, 500-byte messages at 1/6 Hz per client, clients on 20 other machines):',
    ['| clients | messages/s | mosquitto CPU |', '|---|---|---|', ...SEED.map((r) => `| ${r.clients} | ${r.rate} | ${r.cpu} |`)].join('\n'),
  ],
  notes: ['The seed\'s clients held MQTT connections; these devices post over HTTP keep-alive connections from k6, ' +
    'one VU per joining device, so the join arrives as one burst of simultaneous first uplinks.'],
});
