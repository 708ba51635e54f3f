// Ingest throughput and latency (issue 3 benchmark). MODE selects what is measured:
//   single  - as many single-uplink POSTs as VUS closed-loop clients can send (max sustained rate)
//   batch   - the same with BATCH uplinks per request
//   noop    - the same generator against /bench/noop (202 without Kafka): the HTTP ceiling
//   latency - single uplinks at a constant RATE per second (open model), for p50/p95/p99
import http from 'k6/http';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { INGEST_URL, deviceHeaders } from './lib/config.js';
import { em300thHex } from './lib/em300th.js';
import { summaryFor } from './lib/summary.js';

const MODE = __ENV.MODE || 'single';
const DURATION = __ENV.DURATION || '60s';
const VUS = parseInt(__ENV.VUS || '128', 10);
const RATE = parseInt(__ENV.RATE || '1000', 10);
const BATCH = parseInt(__ENV.BATCH || '100', 10);
const DEVICES = parseInt(__ENV.DEVICES || '1000', 10);
const CHANNEL = __ENV.CHANNEL || `bench-${Date.now()}`;

const uplinks = new Counter('uplinks_accepted');

const scenario = MODE === 'latency'
  ? { executor: 'constant-arrival-rate', rate: RATE, timeUnit: '1s', duration: DURATION,
      preAllocatedVUs: Math.max(VUS, 50), maxVUs: Math.max(VUS * 4, 200) }
  : { executor: 'constant-vus', vus: VUS, duration: DURATION };

export const options = {
  scenarios: { [MODE]: scenario },
  discardResponseBodies: true,
  thresholds: {
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

function body(i) {
  const temperature = 15 + (i % 200) / 10;
  return { deviceId: `dev-${i % DEVICES}`, payloadHex: em300thHex(90, temperature, 50) };
}

export default function () {
  const i = __VU * 1000003 + __ITER;
  let url = `${INGEST_URL}/sensor-data/${CHANNEL}/encoded/em300th`;
  let payload;
  let count = 1;
  if (MODE === 'batch') {
    const items = [];
    for (let k = 0; k < BATCH; k++) items.push(body(i * BATCH + k));
    payload = JSON.stringify(items);
    count = BATCH;
  } else {
    payload = JSON.stringify(body(i));
    if (MODE === 'noop') url = `${INGEST_URL}/bench/noop`;
  }
  const res = http.post(url, payload, { headers: deviceHeaders });
  if (check(res, { 'status 202': (r) => r.status === 202 })) uplinks.add(count);
}

export const handleSummary = summaryFor(`ingest-${MODE}${__ENV.RUN ? '-' + __ENV.RUN : ''}`);
