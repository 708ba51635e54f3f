// Live dashboard. On open it shows what the history already holds (the newest data unit of every device, the
// active alarms), then follows one WebSocket with subscriptions to data units and alarms, reconnecting with
// `since` so nothing is missed across a drop. Selecting a device charts its recent measurements. The token
// goes in the subprotocol list and request headers, never in a URL.
(() => {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';
  const TREND_POINTS = 30;
  const CHART_POINTS = 60;
  const MAX_DEVICES = 1000;
  // The history API answers from PostgreSQL, which the store writer fills a moment after Kafka; the first
  // subscription replays this much from Kafka as well, so a data unit in flight while the page opens is in
  // one or the other. Ids make the overlap harmless.
  const REPLAY_SECONDS = 10;
  const devices = new Map();
  const alarms = new Map();
  const alarmVersions = new Map();
  let socket = null;
  let session = 0;
  let since = null;
  let selected = null;
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

  function channel() { return $('#channel').value.trim(); }

  function filter() {
    return channel() ? { channel: channel() } : {};
  }

  function query(values) {
    const search = new URLSearchParams(values);
    if (channel()) search.set('channel', channel());
    return search;
  }

  async function get(path, search) {
    const response = await fetch(`${path}?${search}`, { headers: { Authorization: `Bearer ${token()}` } });
    if (!response.ok) {
      const error = new Error(`${path}: ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return response;
  }

  // A new token or channel: forget everything shown, read the history, then go live.
  async function open() {
    const mine = ++session;
    if (socket) {
      const old = socket;
      socket = null;
      old.close();
    }
    reset();
    sessionStorage.setItem('iot-token', token());
    sessionStorage.setItem('iot-channel', channel());
    setStatus('connecting', 'loading history');
    try {
      const serverTime = await loadHistory();
      if (mine !== session) return;
      since = new Date(serverTime - REPLAY_SECONDS * 1000).toISOString();
    } catch (error) {
      if (mine !== session) return;
      if (error.status === 401 || error.status === 403) {
        setStatus('error', `refused (${error.status}): check the token and channel`);
        return;
      }
      // History unavailable (PostgreSQL down): the live feed still works.
      showNotice(`The history could not be read (${error.message}); showing live data only.`);
      since = new Date().toISOString();
    }
    connect();
  }

  function reset() {
    devices.clear();
    alarms.clear();
    alarmVersions.clear();
    $('#devices tbody').replaceChildren();
    $('#alarms tbody').replaceChildren();
    $('#device-detail').hidden = true;
    $('#notice').hidden = true;
    $('#device-note').textContent = '';
    selected = null;
    unitCount = 0;
    lastUnitId = null;
    lastAlarmId = null;
    showCount();
  }

  /** Reads the newest data unit of each device and the active alarms; answers the server's clock. */
  async function loadHistory() {
    const [latest, active] = await Promise.all([
      get('/data-units/latest', query({ limit: MAX_DEVICES })),
      get('/alarms', query({ state: 'ACTIVE', limit: MAX_DEVICES })),
    ]);
    const units = await latest.json();
    for (const unit of units) onDataUnit(unit, false);
    if (units.length >= MAX_DEVICES) {
      $('#device-note').textContent = `(the ${MAX_DEVICES} most recently heard)`;
    }
    for (const alarm of await active.json()) onAlarm(alarm);
    const date = Date.parse(latest.headers.get('Date'));
    return Number.isNaN(date) ? Date.now() : date;
  }

  function connect() {
    const mine = session;
    const url = location.origin.replace(/^http/, 'ws') + '/ws';
    const ws = new WebSocket(url, ['bearer', token()]);
    socket = ws;
    setStatus('connecting', 'connecting');
    ws.onopen = () => {
      retry = 0;
      ws.send(JSON.stringify({ type: 'subscribe', id: 'units', stream: 'data-units', filter: filter(),
        since: lastUnitId || since }));
      ws.send(JSON.stringify({ type: 'subscribe', id: 'alarms', stream: 'alarms', filter: filter(),
        since: lastAlarmId || since }));
    };
    ws.onmessage = (event) => onMessage(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (socket !== ws || mine !== session) return;
      if (event.code === 1006 && retry === 0 && !lastUnitId) {
        setStatus('error', 'refused: check the token');
      } else {
        setStatus('disconnected', `disconnected (${event.code}), reconnecting`);
      }
      retry = Math.min(retry + 1, 5);
      setTimeout(() => { if (mine === session) connect(); }, 500 * retry);
    };
  }

  function onMessage(message) {
    switch (message.type) {
      case 'subscribed':
        setStatus('live', 'live');
        break;
      case 'data-unit':
        lastUnitId = message.data.id;
        onDataUnit(message.data, true);
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

  function device(unit) {
    const key = `${unit.channel}/${unit.deviceId}`;
    let known = devices.get(key);
    if (!known) {
      const row = $('#devices tbody').insertRow();
      row.dataset.device = unit.deviceId;
      row.dataset.channel = unit.channel;
      row.tabIndex = 0;
      row.title = 'Show its measurements';
      row.onclick = () => select(key);
      row.onkeydown = (event) => { if (event.key === 'Enter') select(key); };
      for (let i = 0; i < 7; i++) row.insertCell();
      known = { key, row, channel: unit.channel, deviceId: unit.deviceId, units: [], ids: new Set(), received: 0 };
      devices.set(key, known);
    }
    return known;
  }

  // Ids are time-ordered (UUIDv7, compared as their fixed-width text), as the history orders them.
  function byId(a, b) {
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  }

  /**
   * One data unit from the history or the live feed. The same unit may come from both (or twice from a
   * replay): its id counts it once. Each device keeps its newest CHART_POINTS units.
   */
  function onDataUnit(unit, live) {
    const known = device(unit);
    const units = known.units;
    if (known.ids.has(unit.id)) return;
    if (units.length >= CHART_POINTS && unit.id < units[0].id) return;
    units.push(unit);
    units.sort(byId);
    known.ids.add(unit.id);
    while (units.length > CHART_POINTS) known.ids.delete(units.shift().id);
    if (live) {
      known.received++;
      unitCount++;
      showCount();
    }
    showDevice(known);
    if (selected === known.key) showCharts(known);
  }

  function showCount() {
    $('#unit-count').textContent = `${unitCount} data unit${unitCount === 1 ? '' : 's'} since opened`;
  }

  function numeric(unit) {
    return Object.entries(unit.measurements || {}).filter(([, v]) => typeof v === 'number' && Number.isFinite(v));
  }

  function showDevice(known) {
    const unit = known.units[known.units.length - 1];
    const measurements = unit.measurements || {};
    const first = numeric(unit).map(([name]) => name)[0];
    const trend = first === undefined ? []
      : known.units.map((u) => (u.measurements || {})[first]).filter((v) => typeof v === 'number').slice(-TREND_POINTS);
    const cells = known.row.cells;
    cells[0].textContent = unit.channel;
    cells[1].textContent = unit.deviceId;
    cells[2].textContent = unit.deviceType;
    cells[3].textContent = Object.entries(measurements).map(([n, v]) => `${n} ${v}`).join(', ');
    cells[3].className = 'reading';
    cells[4].replaceChildren(sparkline(trend));
    cells[5].textContent = known.received;
    cells[5].className = 'count';
    cells[6].textContent = when(unit.measuredAt);
  }

  function when(iso) {
    const date = new Date(iso);
    return date.toDateString() === new Date().toDateString() ? date.toLocaleTimeString() : date.toLocaleString();
  }

  function svg(name, attributes) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  }

  /** Points of a line through values, left to right, scaled to fill the box inside the padding. */
  function points(values, width, height, pad) {
    const min = Math.min(...values);
    const span = Math.max(...values) - min;
    return values.map((v, i) => {
      const x = values.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (values.length - 1);
      const y = span === 0 ? height / 2 : height - pad - ((v - min) / span) * (height - 2 * pad);
      return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
    });
  }

  function sparkline(values) {
    const line = svg('svg', { class: 'trend', viewBox: '0 0 120 24' });
    if (values.length > 1) {
      line.appendChild(svg('polyline', { points: points(values, 120, 24, 2).map((p) => p.join(',')).join(' ') }));
    }
    return line;
  }

  async function select(key) {
    const known = devices.get(key);
    if (!known) return;
    selected = key;
    for (const other of devices.values()) other.row.classList.toggle('selected', other.key === key);
    $('#device-detail').hidden = false;
    $('#detail-device').textContent = `${known.deviceId} (${known.channel})`;
    showCharts(known);
    try {
      const search = new URLSearchParams({ channel: known.channel, deviceId: known.deviceId, order: 'desc',
        limit: CHART_POINTS });
      const page = await (await get('/data-units', search)).json();
      for (const unit of page.items) onDataUnit(unit, false);
    } catch (error) {
      $('#detail-device').textContent = `${known.deviceId} (${known.channel}); history unavailable: ${error.message}`;
    }
  }

  /** One small chart per numeric measurement of the selected device, over the units it keeps. */
  function showCharts(known) {
    const names = [];
    for (const unit of known.units) {
      for (const [name] of numeric(unit)) if (!names.includes(name)) names.push(name);
    }
    const first = known.units[0];
    const last = known.units[known.units.length - 1];
    $('#detail-span').textContent = known.units.length
      ? `${known.units.length} data units, ${when(first.measuredAt)} to ${when(last.measuredAt)}` : '';
    $('#charts').replaceChildren(...names.map((name) => {
      const values = known.units.map((u) => (u.measurements || {})[name]).filter((v) => typeof v === 'number');
      return chart(name, values);
    }));
  }

  function chart(name, values) {
    const width = 320;
    const height = 90;
    const figure = document.createElement('figure');
    figure.className = 'chart';
    figure.dataset.measurement = name;
    const caption = document.createElement('figcaption');
    const min = Math.min(...values);
    const max = Math.max(...values);
    caption.innerHTML = '<span class="name"></span> <b class="value"></b> <small class="range"></small>';
    caption.querySelector('.name').textContent = name;
    caption.querySelector('.value').textContent = values[values.length - 1];
    caption.querySelector('.range').textContent = `min ${min}, max ${max}`;
    const plot = svg('svg', { viewBox: `0 0 ${width} ${height}`, 'data-points': values.length, role: 'img',
      'aria-label': `${name}: ${values.length} values from ${min} to ${max}` });
    plot.appendChild(svg('line', { class: 'axis', x1: 0, y1: height - 1, x2: width, y2: height - 1 }));
    const coordinates = points(values, width, height, 8);
    plot.appendChild(svg('polyline', { points: coordinates.map((p) => p.join(',')).join(' ') }));
    const [x, y] = coordinates[coordinates.length - 1];
    plot.appendChild(svg('circle', { cx: x, cy: y, r: 3 }));
    figure.append(caption, plot);
    return figure;
  }

  function alarmVersion(alarm) {
    return [alarm.raisedAt, alarm.clearedAt, alarm.acknowledgedAt].filter(Boolean).map(Date.parse)
      .reduce((a, b) => Math.max(a, b), 0);
  }

  /**
   * One alarm event from the history or the live feed. Only a newer state of an alarm is applied, so an
   * active alarm read from the history never brings back one the live feed has already cleared.
   */
  function onAlarm(alarm) {
    const version = alarmVersion(alarm);
    if (version < (alarmVersions.get(alarm.alarmId) ?? -1)) return;
    alarmVersions.set(alarm.alarmId, version);
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
    cells[5].textContent = when(alarm.raisedAt);
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

  $('#connect').addEventListener('submit', (event) => {
    event.preventDefault();
    open();
  });
  if (token()) open();
})();
