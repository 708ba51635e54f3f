// Fan-out (seeds 000 and 004): SUBSCRIBERS WebSocket sessions subscribe to one channel, then one publisher posts
// RATE uplinks per second to it for DURATION seconds. Every subscriber must receive every data unit. Figures:
// loss (deliveries expected - delivered), time_lapse (receivedAt at ingest -> receipt) and pub_to_sub (the
// publisher's clock before its POST -> receipt, seed 000's "pub to sub latency"), as percentiles over all
// deliveries. k6 WebSocket VUs suit tens of subscribers; thousands are bench/fanout.sh's job (bench/wsload).
// Run: k6/run fanout [--smoke]   (-e SUBSCRIBERS=100 -e RATE=100 ...)
import exec from 'k6/execution';
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { param, seconds, runChannel, SMOKE } from './lib/presets.js';
import { postDecoded, listen, storedCount, waitFor, noLossThresholds } from './lib/pipeline.js';
import { reportFor, fmtInt, fmtMs, pct, spread } from './lib/report.js';
import { FANOUT as SEED } from './lib/seeds.js';

const SUBSCRIBERS = param('SUBSCRIBERS', 50, 5);
const RATE = param('RATE', 10, 20); // uplinks per second from the one publisher
const DURATION = param('DURATION', 60, 4); // seconds of publishing
const START_DELAY = param('START_DELAY', 3, 1);
const DRAIN = param('DRAIN', 30, 10);
const PLANNED = Math.round(RATE * DURATION);
const EXPECTED_DELIVERIES = PLANNED * SUBSCRIBERS;

const published = new Counter('uplinks_accepted');
const expectedDeliveries = new Counter('deliveries_expected');
const delivered = new Counter('deliveries');
const duplicates = new Counter('data_units_duplicates');
const stored = new Counter('data_units_stored');
const timeLapse = new Trend('time_lapse', true);
const pubToSub = new Trend('pub_to_sub', true);

export const options = {
  scenarios: {
    subscribers: {
      executor: 'per-vu-iterations', vus: SUBSCRIBERS, iterations: 1, exec: 'subscriber',
      maxDuration: seconds(START_DELAY + DURATION + DRAIN + 30),
    },
    publisher: {
      executor: 'constant-arrival-rate', exec: 'publisher', startTime: seconds(START_DELAY),
      rate: RATE, timeUnit: '1s', duration: seconds(DURATION),
      preAllocatedVUs: Math.max(20, Math.ceil(RATE / 2)), maxVUs: Math.max(20, RATE), gracefulStop: '30s',
    },
  },
  thresholds: {
    ...noLossThresholds(PLANNED),
    deliveries: [`count==${EXPECTED_DELIVERIES}`],
    time_lapse: [`p(95)<=${param('TIME_LAPSE_P95', 1000, 3000)}`],
    'http_req_duration{scenario:publisher}': ['p(99)>=0'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  const channel = runChannel('fanout');
  expectedDeliveries.add(EXPECTED_DELIVERIES);
  console.log(`fanout: channel ${channel}, ${SUBSCRIBERS} subscribers, ${RATE} uplinks/s for ${DURATION} s`);
  return { channel, start: Date.now() };
}

export function subscriber(data) {
  const seen = new Set();
  listen({
    channel: data.channel,
    dataUnits: (unit, receipt) => {
      if (seen.has(unit.id)) { duplicates.add(1); return; }
      seen.add(unit.id);
      delivered.add(1);
      timeLapse.add(receipt - Date.parse(unit.receivedAt));
      if (unit.measurements && unit.measurements.sentAt) pubToSub.add(receipt - unit.measurements.sentAt);
    },
    done: () => seen.size >= PLANNED,
    deadlineMs: data.start + (START_DELAY + DURATION + DRAIN) * 1000,
  });
  check(seen.size, { 'subscriber received every message': (n) => n === PLANNED });
  if (seen.size !== PLANNED) console.warn(`subscriber ${__VU}: Expected: ${PLANNED}; Actual: ${seen.size}`);
  // The first subscriber also checks the history (one count request, not one per subscriber). Not __VU === 1:
  // k6 may give VU 1 to the publisher scenario, and then no one checked and the stored count read 0.
  if (exec.scenario.iterationInTest === 0) {
    const count = waitFor(() => storedCount(data.channel), PLANNED, DRAIN, 8);
    stored.add(Math.max(count, 0));
    check(count, { 'data units were all stored': (n) => n === PLANNED });
  }
}

export function publisher(data) {
  const k = exec.scenario.iterationInTest;
  if (k >= PLANNED) return;
  const res = postDecoded(data.channel, {
    deviceId: `publisher-${k % 10}`,
    measurements: { temperature: 20 + (k % 50) / 10, sequence: k, sentAt: Date.now() },
  });
  if (check(res, { 'status was 202': (r) => r.status === 202 })) published.add(1);
}

export const handleSummary = reportFor('fanout', {
  title: 'Fan-out (seeds 000 and 004)',
  size: { SUBSCRIBERS, RATE: `${RATE}/s`, DURATION: `${DURATION} s` },
  header: ['figure', 'this run', 'seed 000 (Mainflux MQTT, QoS 2, 3 x 8 vCPU)', 'seed 004 (Redis pub/sub, 800 subscribers)'],
  rows: (m) => {
    const got = m.count('deliveries');
    const lost = EXPECTED_DELIVERIES - got;
    const redis = SEED.redis.find((r) => r.rate === `${RATE} msg/s`);
    return [
      ['setup', `1 publisher at ${RATE} uplinks/s for ${DURATION} s, ${SUBSCRIBERS} WebSocket subscribers`, SEED.mainflux.setup,
        redis ? `1 publisher at ${redis.rate}` : '1, 10 or 100 msg/s'],
      ['published (202)', `${fmtInt(m.count('uplinks_accepted'))} of ${fmtInt(PLANNED)}`, '', ''],
      ['deliveries (Expected; Actual)', `${fmtInt(EXPECTED_DELIVERIES)}; ${fmtInt(got)}`, '', redis ? `received ${redis.received}` : ''],
      ['loss', `${fmtInt(lost)} (${pct(lost, EXPECTED_DELIVERIES)})`, SEED.mainflux.loss, 'none reported'],
      ['pub_to_sub (publisher clock -> receipt) p50 / p90 / p95 / p99 / max', spread(m, 'pub_to_sub'),
        `p95 ${SEED.mainflux.p95}, max ${SEED.mainflux.max}`, redis ? `mean ${redis.mean}, max ${redis.max}` : ''],
      ['pub_to_sub mean', fmtMs(m.trend('pub_to_sub', 'avg')), '', redis ? redis.mean : ''],
      ['time_lapse (receivedAt -> receipt) p50 / p90 / p95 / p99 / max', spread(m, 'time_lapse'), '', ''],
      ['publisher POST p50 / p90 / p95 / p99 / max', spread(m, 'http_req_duration{scenario:publisher}'), '', ''],
      ['messages the server dropped for slow subscribers', fmtInt(m.count('ws_dropped')), '', ''],
      ['data units stored', `${fmtInt(m.count('data_units_stored'))} of ${fmtInt(PLANNED)}`, '', ''],
    ];
  },
  notes: [`Seed 004's other figures: ${SEED.redis.map((r) => `${r.rate}: mean ${r.mean}, max ${r.max}`).join('; ')}. ` +
    'Both seeds ran their subscribers on other machines; here the k6 subscribers share the two cores with the stack.' +
    (SMOKE ? '' : ' For thousands of subscribers use bench/fanout.sh.')],
});
