// Live dashboard: one WebSocket, subscriptions to data units and alarms, reconnecting with `since` so
// nothing is missed across a drop. The token goes in the subprotocol list, never in the URL.
(() => {
  'use strict';
  const TREND_POINTS = 30;
  const devices = new Map();
  const alarms = new Map();
  let socket = null;
  let unitCount = 0;
  let lastUnitId = null;
  let lastAlarmId = null;
  let retry = 0;

  const $ = (selector) => document.querySelector(selector);
  const params = new URLSearchParams(location.hash.slice(1));
  $('#token').value = params.get('token') || sessionStorage.getItem('iot-token') || '';
  $('#channel').value = params.get('channel') || sessionStorage.getItem('iot-channel') || '';

  function setStatus(state, text) {
    $('#status').dataset.state = state;
    $('#status').textContent = text;
  }

  function showNotice(text) {
    $('#notice').textContent = text;
    $('#notice').hidden = false;
  }

  function token() { return $('#token').value.trim(); }

  function filter() {
    const channel = $('#channel').value.trim();
    return channel ? { channel } : {};
  }

  function connect() {
    if (socket) socket.close();
    sessionStorage.setItem('iot-token', token());
    sessionStorage.setItem('iot-channel', $('#channel').value.trim());
    const url = location.origin.replace(/^http/, 'ws') + '/ws';
    const ws = new WebSocket(url, ['bearer', token()]);
    socket = ws;
    setStatus('connecting', 'connecting');
    ws.onopen = () => {
      retry = 0;
      const units = { type: 'subscribe', id: 'units', stream: 'data-units', filter: filter() };
      const alarmSub = { type: 'subscribe', id: 'alarms', stream: 'alarms', filter: filter() };
      if (lastUnitId) units.since = lastUnitId;
      if (lastAlarmId) alarmSub.since = lastAlarmId;
      ws.send(JSON.stringify(units));
      ws.send(JSON.stringify(alarmSub));
    };
    ws.onmessage = (event) => onMessage(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (socket !== ws) return;
      if (event.code === 1006 && retry === 0 && !lastUnitId) {
        setStatus('error', 'refused: check the token');
      } else {
        setStatus('disconnected', `disconnected (${event.code}), reconnecting`);
      }
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 500 * retry);
    };
  }

  function onMessage(message) {
    switch (message.type) {
      case 'subscribed':
        setStatus('live', 'live');
        if (message.id === 'alarms') loadActiveAlarms();
        break;
      case 'data-unit':
        lastUnitId = message.data.id;
        onDataUnit(message.data);
        break;
      case 'alarm':
        lastAlarmId = message.data.id;
        onAlarm(message.data);
        break;
      case 'error':
        setStatus('error', `${message.code}: ${message.message}`);
        break;
      case 'dropped':
        setStatus('live', `live (missed ${message.count})`);
        break;
      // {"type":"gap","id":"units","stream":"data-units","partitions":[{"partition":0,"requestedOffset":12,
      //  "firstRetainedOffset":40,"firstRetainedAt":"..."}],"lostBefore":"...","detail":"..."}: part of what
      // was missed while away is no longer in Kafka, so the replay that follows starts later than asked.
      case 'gap':
        showNotice(`Some ${message.stream} missed while disconnected, from before `
          + `${new Date(message.lostBefore).toLocaleString()}, can no longer be replayed; `
          + `the history (GET /${message.stream}) still holds them.`);
        break;
      default:
        break;
    }
  }

  function onDataUnit(unit) {
    unitCount++;
    $('#unit-count').textContent = `${unitCount} data units`;
    const key = `${unit.channel}/${unit.deviceId}`;
    let device = devices.get(key);
    if (!device) {
      const row = $('#devices tbody').insertRow();
      row.dataset.device = unit.deviceId;
      row.dataset.channel = unit.channel;
      for (let i = 0; i < 7; i++) row.insertCell();
      device = { row, count: 0, trend: [] };
      devices.set(key, device);
    }
    device.count++;
    const measurements = unit.measurements || {};
    const names = Object.keys(measurements);
    const first = names.find((n) => typeof measurements[n] === 'number');
    if (first !== undefined) {
      device.trend.push(measurements[first]);
      if (device.trend.length > TREND_POINTS) device.trend.shift();
    }
    const cells = device.row.cells;
    cells[0].textContent = unit.channel;
    cells[1].textContent = unit.deviceId;
    cells[2].textContent = unit.deviceType;
    cells[3].textContent = names.map((n) => `${n} ${measurements[n]}`).join(', ');
    cells[3].className = 'reading';
    cells[4].replaceChildren(sparkline(device.trend));
    cells[5].textContent = device.count;
    cells[5].className = 'count';
    cells[6].textContent = new Date(unit.measuredAt).toLocaleTimeString();
  }

  function sparkline(values) {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', 'trend');
    svg.setAttribute('viewBox', '0 0 120 24');
    if (values.length > 1) {
      const min = Math.min(...values);
      const span = (Math.max(...values) - min) || 1;
      const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
      line.setAttribute('points', values.map((v, i) =>
        `${(i * 120) / (TREND_POINTS - 1)},${22 - ((v - min) / span) * 20}`).join(' '));
      svg.appendChild(line);
    }
    return svg;
  }

  function onAlarm(alarm) {
    const existing = alarms.get(alarm.alarmId);
    if (alarm.state !== 'ACTIVE') {
      if (existing) existing.remove();
      alarms.delete(alarm.alarmId);
      return;
    }
    const row = existing || $('#alarms tbody').insertRow();
    if (!existing) {
      row.dataset.alarm = alarm.alarmId;
      for (let i = 0; i < 7; i++) row.insertCell();
      alarms.set(alarm.alarmId, row);
    }
    row.dataset.device = alarm.deviceId;
    row.dataset.acknowledged = String(alarm.acknowledged);
    const cells = row.cells;
    cells[0].textContent = alarm.severity;
    cells[0].className = `severity-${alarm.severity}`;
    cells[1].textContent = alarm.ruleName || alarm.ruleId;
    cells[2].textContent = alarm.channel;
    cells[3].textContent = alarm.deviceId;
    cells[4].textContent = Object.entries(alarm.values || {}).map(([n, v]) => `${n} ${v}`).join(', ');
    cells[5].textContent = new Date(alarm.raisedAt).toLocaleTimeString();
    if (alarm.acknowledged) {
      cells[6].textContent = 'acknowledged';
    } else if (!cells[6].querySelector('button')) {
      const button = document.createElement('button');
      button.textContent = 'Acknowledge';
      button.className = 'acknowledge';
      button.onclick = () => acknowledge(alarm.alarmId, button);
      cells[6].replaceChildren(button);
    }
  }

  async function acknowledge(alarmId, button) {
    button.disabled = true;
    const response = await fetch(`/alarms/${alarmId}/acknowledge`, {
      method: 'POST', headers: { Authorization: `Bearer ${token()}` },
    });
    // The acknowledged alarm arrives on the WebSocket; the button only waits for it.
    if (!response.ok) {
      button.disabled = false;
      setStatus('error', `acknowledge failed: ${response.status}`);
    }
  }

  async function loadActiveAlarms() {
    const channel = $('#channel').value.trim();
    const query = new URLSearchParams({ state: 'ACTIVE' });
    if (channel) query.set('channel', channel);
    const response = await fetch(`/alarms?${query}`, { headers: { Authorization: `Bearer ${token()}` } });
    if (!response.ok) return;
    for (const alarm of await response.json()) {
      if (!alarms.has(alarm.alarmId)) onAlarm(alarm);
    }
  }

  $('#connect').addEventListener('submit', (event) => {
    event.preventDefault();
    lastUnitId = null;
    lastAlarmId = null;
    connect();
  });
  if (token()) connect();
})();
