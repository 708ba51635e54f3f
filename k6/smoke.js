// Smoke: a WebSocket subscriber connects first, a handful of EM300-TH devices post, the subscriber must
// receive every data unit, the history must count all of them, and the hot ones must raise alarms.
import http from 'k6/http';
import ws from 'k6/ws';
import { check, sleep } from 'k6';
import { Trend, Counter } from 'k6/metrics';
import { INGEST_URL, RULES_URL, NOTIFY_URL, WS_URL, DASHBOARD_TOKEN, deviceHeaders, adminHeaders, dashboardHeaders } from './lib/config.js';
import { em300thHex } from './lib/em300th.js';
import { summaryFor } from './lib/summary.js';

const DEVICES = parseInt(__ENV.DEVICES || '5', 10);
const UPLINKS_PER_DEVICE = parseInt(__ENV.UPLINKS_PER_DEVICE || '2', 10);
const HOT_DEVICES = Math.ceil(DEVICES / 2);

const timeLapse = new Trend('time_lapse', true);
const received = new Counter('data_units_received');
const alarmsReceived = new Counter('alarms_received');

export const options = {
  scenarios: { smoke: { executor: 'shared-iterations', vus: 1, iterations: 1, maxDuration: '90s' } },
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    time_lapse: ['p(95)<3000'],
  },
};

export default function () {
  const channel = `smoke-${Date.now()}`;
  const expected = DEVICES * UPLINKS_PER_DEVICE;
  const rule = http.post(`${RULES_URL}/rules`, JSON.stringify({
    name: 'smoke hot', filter: { channel }, condition: 'temperature > 30', severity: 'MINOR',
  }), { headers: adminHeaders });
  check(rule, { 'rule created': (r) => r.status === 201 });

  const seen = new Set();
  const alarmDevices = new Set();
  let accepted = 0;
  ws.connect(WS_URL, { headers: { Authorization: `Bearer ${DASHBOARD_TOKEN}` } }, (socket) => {
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'subscribe', id: 'units', stream: 'data-units', filter: { channel } }));
      socket.send(JSON.stringify({ type: 'subscribe', id: 'alarms', stream: 'alarms', filter: { channel } }));
    });
    let subscribed = 0;
    socket.on('message', (raw) => {
      const message = JSON.parse(raw);
      if (message.type === 'subscribed' && ++subscribed === 2) {
        for (let i = 0; i < UPLINKS_PER_DEVICE; i++) {
          for (let d = 0; d < DEVICES; d++) {
            const temperature = d < HOT_DEVICES ? 31 + d : 20 + d / 10;
            const res = http.post(`${INGEST_URL}/sensor-data/${channel}/encoded/em300th`, JSON.stringify({
              deviceId: `smoke-${d}`, payloadHex: em300thHex(90, temperature, 50),
            }), { headers: deviceHeaders });
            if (check(res, { 'status 202': (r) => r.status === 202 })) accepted++;
          }
        }
      } else if (message.type === 'data-unit') {
        if (!seen.has(message.data.id)) {
          seen.add(message.data.id);
          received.add(1);
          timeLapse.add(Date.now() - Date.parse(message.data.receivedAt));
        }
      } else if (message.type === 'alarm') {
        alarmsReceived.add(1);
        alarmDevices.add(message.data.deviceId);
      } else if (message.type === 'error') {
        console.error(`server error: ${raw}`);
      }
      if (seen.size === expected && alarmDevices.size === HOT_DEVICES) socket.close();
    });
    socket.setTimeout(() => socket.close(), 30000);
  });

  let stored = -1;
  for (let i = 0; i < 60 && stored !== expected; i++) {
    const res = http.get(`${NOTIFY_URL}/data-units/count?channel=${channel}`, { headers: dashboardHeaders });
    stored = res.status === 200 ? res.json('count') : -1;
    if (stored !== expected) sleep(0.5);
  }
  console.log(`Expected: ${expected}; Accepted: ${accepted}; Received: ${seen.size}; Stored: ${stored}; Alarms: ${alarmDevices.size} of ${HOT_DEVICES}`);
  check(null, {
    'all accepted': () => accepted === expected,
    'all received on the WebSocket': () => seen.size === expected,
    'all stored': () => stored === expected,
    'every hot device raised one alarm': () => alarmDevices.size === HOT_DEVICES,
  });
  if (rule.status === 201) {
    http.del(`${RULES_URL}/rules/${rule.json('id')}`, null, { headers: adminHeaders });
  }
}

export const handleSummary = summaryFor('smoke');
