// What the suites do to the pipeline: post uplinks, create and delete rules, listen on the WebSocket, and count
// what the history stored. Shared so every suite measures the same way.
import http from 'k6/http';
import ws from 'k6/ws';
import { check, sleep } from 'k6';
import { Counter } from 'k6/metrics';
import { INGEST_URL, RULES_URL, NOTIFY_URL, WS_URL, DASHBOARD_TOKEN, deviceHeaders, dashboardHeaders, adminHeaders } from './config.js';
import { em300thHex } from './em300th.js';
import { RETRIED_ELSEWHERE } from './instances.js';

// Messages the server dropped for a subscriber that fell behind ({"type":"dropped","count":N}).
export const wsDropped = new Counter('ws_dropped');
// Server {"type":"error"} messages: a subscription that was refused.
export const wsErrors = new Counter('ws_errors');

const EM300TH_NAME = 'POST /sensor-data/{channel}/encoded/em300th';
// Built once: the seed shape posts 500 times a second from the cores it measures.
const em300thParams = { headers: deviceHeaders, tags: { name: EM300TH_NAME } };

// A device's first attempt behind the balancer of k6/lib/instances.js, which retries a refusal elsewhere.
const em300thHomeParams = Object.assign({ responseCallback: RETRIED_ELSEWHERE }, em300thParams);

function sendEm300th(baseUrl, channel, deviceId, temperature, id, params) {
  return http.post(`${baseUrl}/sensor-data/${channel}/encoded/em300th`,
    JSON.stringify({ deviceId, payloadHex: em300thHex(90, temperature, 50), id }), params);
}

// One EM300-TH uplink in the single encoded form; returns the response.
export function postEm300th(channel, deviceId, temperature, tags) {
  return sendEm300th(INGEST_URL, channel, deviceId, temperature, undefined,
    tags ? { headers: deviceHeaders, tags: Object.assign({ name: EM300TH_NAME }, tags) } : em300thParams);
}

// The same uplink to the ingest instance at baseUrl, with the client id that makes a retry of it (on this instance or
// another) the same event: one stored data unit however often it was sent. home: the device's first attempt, whose
// refusal the balancer retries elsewhere rather than the device seeing it fail.
export function postEm300thTo(baseUrl, channel, deviceId, temperature, id, home) {
  return sendEm300th(baseUrl, channel, deviceId, temperature, id, home ? em300thHomeParams : em300thParams);
}

// Several EM300-TH uplinks ([{deviceId, temperature}]) in one batch request, as a gateway or network server sends
// them; returns the response (202 for all of them or an error for all of them).
export function postEm300thBatch(channel, items, tags) {
  const body = items.map((u) => ({ deviceId: u.deviceId, payloadHex: em300thHex(90, u.temperature, 50) }));
  return http.post(`${INGEST_URL}/sensor-data/${channel}/encoded/em300th`, JSON.stringify(body),
    { headers: deviceHeaders, tags: Object.assign({ name: 'POST /sensor-data/{channel}/encoded/em300th (batch)' }, tags || {}) });
}

// Measurements the device decoded itself (the decoded form); returns the response.
export function postDecoded(channel, body, tags) {
  return http.post(`${INGEST_URL}/sensor-data/${channel}/decoded`, JSON.stringify(body),
    { headers: deviceHeaders, tags: Object.assign({ name: 'POST /sensor-data/{channel}/decoded' }, tags || {}) });
}

export function createRule(rule) {
  const res = http.post(`${RULES_URL}/rules`, JSON.stringify(rule),
    { headers: adminHeaders, tags: { name: 'POST /rules' } });
  check(res, { 'rule created': (r) => r.status === 201 });
  if (res.status !== 201) throw new Error(`rule not created: ${res.status} ${res.body}`);
  return res.json('id');
}

export function deleteRule(id) {
  const res = http.del(`${RULES_URL}/rules/${id}`, null, { headers: adminHeaders, tags: { name: 'DELETE /rules/{id}' } });
  check(res, { 'rule deleted': (r) => r.status === 204 || r.status === 200 });
}

// The history's count of data units in a channel, -1 when the request failed.
export function storedCount(channel) {
  const res = http.get(`${NOTIFY_URL}/data-units/count?channel=${channel}`,
    { headers: dashboardHeaders, tags: { name: 'GET /data-units/count' } });
  return res.status === 200 ? res.json('count') : -1;
}

// Alarms of a channel in the history (one row per alarm, its latest state), counted by notify.
export function storedAlarms(channel) {
  const res = http.get(`${NOTIFY_URL}/alarms/count?channel=${channel}`,
    { headers: dashboardHeaders, tags: { name: 'GET /alarms/count' } });
  return res.status === 200 ? res.json('count') : -1;
}

// Polls value() until it equals expected, stops changing for `stallSeconds`, or `timeoutSeconds` pass; returns
// the last value. Data still in flight when ingestion stops is waited for, a loss is not waited for forever.
export function waitFor(value, expected, timeoutSeconds, stallSeconds) {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let last = value();
  let lastChange = Date.now();
  while (last !== expected && Date.now() < deadline && Date.now() - lastChange < stallSeconds * 1000) {
    sleep(0.5);
    const now = value();
    if (now !== last) lastChange = Date.now();
    last = now;
  }
  return last;
}

// Connects one WebSocket session, subscribes to the given streams of a channel and hands every data unit or
// alarm to the callbacks with the receipt time (ms since the epoch, taken before anything else). The session
// ends when done() returns true after a message, or at deadlineMs (epoch ms). `filters` (default: one, the
// channel) are extra filter fields, one subscription per stream and entry. Returns the number of subscriptions
// the server confirmed.
export function listen({ channel, dataUnits, alarms, done, deadlineMs, filters }) {
  let confirmed = 0;
  const extra = filters || [{}];
  const wanted = ((dataUnits ? 1 : 0) + (alarms ? 1 : 0)) * extra.length;
  const res = ws.connect(WS_URL, { headers: { Authorization: `Bearer ${DASHBOARD_TOKEN}` }, tags: { name: 'WS /ws' } }, (socket) => {
    socket.on('open', () => {
      extra.forEach((more, i) => {
        const f = Object.assign({ channel }, more);
        if (dataUnits) socket.send(JSON.stringify({ type: 'subscribe', id: `units-${i}`, stream: 'data-units', filter: f }));
        if (alarms) socket.send(JSON.stringify({ type: 'subscribe', id: `alarms-${i}`, stream: 'alarms', filter: f }));
      });
    });
    socket.on('message', (raw) => {
      const receipt = Date.now();
      const message = JSON.parse(raw);
      switch (message.type) {
        case 'data-unit': dataUnits(message.data, receipt); break;
        case 'alarm': alarms(message.data, receipt); break;
        case 'subscribed': confirmed++; break;
        case 'dropped': wsDropped.add(message.count); console.warn(`server dropped ${message.count} messages for this subscriber`); break;
        case 'error': wsErrors.add(1); console.error(`server error: ${raw}`); break;
        default: break;
      }
      if (done && done()) socket.close();
    });
    socket.setInterval(() => {
      if (Date.now() >= deadlineMs || (done && done())) socket.close();
    }, 250);
    // The server closes sessions it has not heard from for its idle timeout (90 s): say something now and then.
    socket.setInterval(() => socket.send(JSON.stringify({ type: 'ping', id: 'keepalive' })), 20000);
  });
  check(res, { 'WebSocket connected': (r) => r && r.status === 101 });
  check(confirmed, { 'subscriptions confirmed': (n) => n === wanted });
  return confirmed;
}

// What "nothing lost" means for every suite: no failed request or check, no message the server dropped for a
// subscriber, and exactly `planned` uplinks accepted and stored. Suites add their delivery counts and latencies.
export function noLossThresholds(planned) {
  return {
    http_req_failed: ['rate==0'],
    checks: ['rate==1'],
    ws_dropped: ['count==0'],
    ws_errors: ['count==0'],
    uplinks_accepted: [`count==${planned}`],
    data_units_stored: [`count==${planned}`],
  };
}
