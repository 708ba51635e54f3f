// Rule to alarm latency: a subscriber listens for alarms; one device at a time, a new rule is created and a
// matching uplink posted right after it, and the next device starts once its alarm arrived; rule_to_alarm
// is the time from the rule POST to the alarm on the WebSocket. Rules are deleted afterwards.
import http from 'k6/http';
import ws from 'k6/ws';
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import { INGEST_URL, RULES_URL, WS_URL, DASHBOARD_TOKEN, deviceHeaders, adminHeaders } from './lib/config.js';
import { em300thHex } from './lib/em300th.js';
import { summaryFor } from './lib/summary.js';

const RULES = parseInt(__ENV.RULES || '20', 10);
const ruleToAlarm = new Trend('rule_to_alarm', true);

export const options = {
  scenarios: { latency: { executor: 'shared-iterations', vus: 1, iterations: 1, maxDuration: '120s' } },
  thresholds: { checks: ['rate==1'], http_req_failed: ['rate==0'] },
};

export default function () {
  const channel = `latency-${Date.now()}`;
  const ruleIds = [];
  let current = -1;
  let started = 0;
  let raised = 0;
  function next() {
    current++;
    const deviceId = `lat-${current}`;
    started = Date.now();
    const rule = http.post(`${RULES_URL}/rules`, JSON.stringify({
      name: `latency ${current}`, filter: { channel, deviceId }, condition: 'temperature > 30', severity: 'INFO',
    }), { headers: adminHeaders });
    check(rule, { 'rule created': (r) => r.status === 201 });
    if (rule.status === 201) ruleIds.push(rule.json('id'));
    const up = http.post(`${INGEST_URL}/sensor-data/${channel}/encoded/em300th`,
      JSON.stringify({ deviceId, payloadHex: em300thHex(90, 35, 50) }), { headers: deviceHeaders });
    check(up, { 'status 202': (r) => r.status === 202 });
  }
  ws.connect(WS_URL, { headers: { Authorization: `Bearer ${DASHBOARD_TOKEN}` } }, (socket) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', id: 'a', stream: 'alarms', filter: { channel } })));
    socket.on('message', (raw) => {
      const message = JSON.parse(raw);
      if (message.type === 'subscribed') {
        next();
      } else if (message.type === 'alarm' && message.data.deviceId === `lat-${current}`) {
        ruleToAlarm.add(Date.now() - started);
        raised++;
        if (raised === RULES) socket.close(); else next();
      }
    });
    socket.setTimeout(() => socket.close(), 60000);
  });
  check(null, { 'every rule raised its alarm': () => raised === RULES });
  for (const id of ruleIds) http.del(`${RULES_URL}/rules/${id}`, null, { headers: adminHeaders });
}

export const handleSummary = summaryFor('rule-latency');
