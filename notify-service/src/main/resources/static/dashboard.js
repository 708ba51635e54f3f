// Live dashboard. On open it lists the devices the history knows (GET /devices: type, last seen, latest
// measurements) and the active alarms, then follows one WebSocket with subscriptions to data units and alarms,
// reconnecting with `since` so nothing is missed across a drop. Selecting a device charts each measurement over
// the last day from GET /data-units/aggregate, extended by its live readings. The token goes in the subprotocol
// list and request headers, never in a URL. With a channel set, it also lists that channel's registered devices
// (GET /devices/registered: enabled or not, last seen), page by page, their last seen kept current by the feed.
(() => {
  'use strict';
  const SVG = 'http://www.w3.org/2000/svg';
  const TREND_POINTS = 30;
  const CHART_HOURS = 24;
  const BUCKET_MINUTES = 15;
  const BUCKET_MS = BUCKET_MINUTES * 60_000;
  const MAX_DEVICES = 1000;
  // The history API answers from PostgreSQL, which the store writer fills a moment after Kafka; the first
  // subscription replays this much from Kafka as well, so a data unit in flight while the page opens is in
  // one or the other. Ids make the overlap harmless.
  const REPLAY_SECONDS = 10;
  const REGISTRY_PAGE = 100;
  const devices = new Map();
  const registered = new Map(); // deviceId -> its row in the registry table
  let registryNext = null;
  const alarms = new Map();
  const alarmVersions = new Map();
  let socket = null;
  let session = 0;
  let since = null;
  let chart = null; // the selected device's buckets: { key, from, to, series: Map(name -> buckets), loaded }
  let clockOffset = 0; // the server's clock minus this browser's, from the Date of GET /devices
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
    loadRegistry(mine).catch(() => {});
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
    registered.clear();
    registryNext = null;
    $('#registered tbody').replaceChildren();
    $('#registry').hidden = true;
    $('#registry-more').hidden = true;
    $('#registry-note').textContent = '';
    $('#device-detail').hidden = true;
    $('#notice').hidden = true;
    $('#device-note').textContent = '';
    $('#charts').replaceChildren();
    delete $('#charts').dataset.loaded;
    chart = null;
    unitCount = 0;
    lastUnitId = null;
    lastAlarmId = null;
    showCount();
  }

  /** Reads each device's latest reading and the active alarms; answers the server's clock. */
  async function loadHistory() {
    const [listed, active] = await Promise.all([
      get('/devices', query({ limit: MAX_DEVICES })),
      get('/alarms', query({ state: 'ACTIVE', limit: MAX_DEVICES })),
    ]);
    const entries = await listed.json();
    for (const entry of entries) onListed(entry);
    if (entries.length >= MAX_DEVICES) {
      $('#device-note').textContent = `(the ${MAX_DEVICES} most recently heard)`;
    }
    for (const alarm of await active.json()) onAlarm(alarm);
    const date = Date.parse(listed.headers.get('Date'));
    clockOffset = Number.isNaN(date) ? 0 : date - Date.now();
    return Date.now() + clockOffset;
  }

  /**
   * The next page of the channel's registered devices, in id order. Without a channel there is none to list; a
   * token refused for it, or a history that cannot be read, leaves the section hidden (the device list says why).
   */
  async function loadRegistry(mine) {
    if (!channel()) return;
    const search = new URLSearchParams({ limit: REGISTRY_PAGE });
    if (registryNext) search.set('after', registryNext);
    const page = await (await get('/devices/registered', query(Object.fromEntries(search)))).json();
    if (mine !== session) return;
    for (const item of page.items) showRegistered(item);
    registryNext = page.next;
    $('#registry').hidden = page.total === 0;
    $('#registry-more').hidden = !page.next;
    const disabled = [...registered.values()].filter((row) => row.cells[3].className === 'disabled').length;
    $('#registry-note').textContent = `${registered.size} of ${page.total} shown`
      + (disabled ? `, ${disabled} of them disabled` : '');
  }

  function showRegistered(item) {
    let row = registered.get(item.deviceId);
    if (!row) {
      row = $('#registered tbody').insertRow();
      row.dataset.device = item.deviceId;
      for (let i = 0; i < 6; i++) row.insertCell();
      registered.set(item.deviceId, row);
    }
    const cells = row.cells;
    cells[0].textContent = item.deviceId;
    cells[1].textContent = item.deviceType || '';
    cells[2].textContent = Object.entries(item.labels || {}).map(([k, v]) => `${k}=${v}`).join(', ');
    cells[3].textContent = item.enabled ? 'enabled' : 'disabled';
    cells[3].className = item.enabled ? 'enabled' : 'disabled';
    cells[4].textContent = item.credentials;
    seen(row, item.lastSeen);
  }

  function seen(row, iso) {
    const cell = row.cells[5];
    cell.textContent = iso ? when(iso) : 'never';
    cell.className = iso ? 'seen' : 'never';
    if (iso) cell.dataset.at = iso;
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

  function device(channel, deviceId) {
    const key = `${channel}/${deviceId}`;
    let known = devices.get(key);
    if (!known) {
      const row = $('#devices tbody').insertRow();
      row.dataset.device = deviceId;
      row.dataset.channel = channel;
      row.tabIndex = 0;
      row.title = 'Chart its measurements';
      row.onclick = () => select(key);
      row.onkeydown = (event) => { if (event.key === 'Enter') select(key); };
      for (let i = 0; i < 7; i++) row.insertCell();
      known = { key, row, channel, deviceId, latest: null, listedAt: -Infinity, recent: [], trend: [], received: 0 };
      devices.set(key, known);
    }
    return known;
  }

  /** A device as GET /devices lists it: its latest reading when the page opened. */
  function onListed(entry) {
    const known = device(entry.channel, entry.deviceId);
    known.listedAt = Date.parse(entry.lastSeen);
    remember(known, entry.lastDataUnitId);
    update(known, { id: entry.lastDataUnitId, deviceType: entry.deviceType, receivedAt: entry.lastSeen,
      measuredAt: entry.measuredAt, measurements: entry.measurements });
  }

  /** Ids of a device's last few data units, so a unit both listed and replayed (or replayed twice) counts once. */
  function remember(known, id) {
    if (known.recent.includes(id)) return false;
    known.recent.push(id);
    if (known.recent.length > TREND_POINTS) known.recent.shift();
    return true;
  }

  /**
   * A data unit from the live feed. One received before the device's listed reading is already in the history
   * (and in the aggregate); any other is new: it counts, updates the row if it is the device's latest reading,
   * and extends the chart of the selected device.
   */
  function onDataUnit(unit) {
    const known = device(unit.channel, unit.deviceId);
    if (!remember(known, unit.id) || Date.parse(unit.receivedAt) < known.listedAt) return;
    known.received++;
    unitCount++;
    const row = unit.channel === channel() ? registered.get(unit.deviceId) : null;
    if (row && !(Date.parse(row.cells[5].dataset.at) >= Date.parse(unit.receivedAt))) seen(row, unit.receivedAt);
    showCount();
    update(known, unit);
    if (chart && chart.key === known.key) {
      extend(chart, unit);
      showCharts();
    }
  }

  /** Which reading is a device's latest, as the history decides: last received, then last measured, then id. */
  function newer(a, b) {
    if (!b) return true;
    const received = Date.parse(a.receivedAt) - Date.parse(b.receivedAt);
    if (received !== 0) return received > 0;
    const measured = Date.parse(a.measuredAt) - Date.parse(b.measuredAt);
    return measured !== 0 ? measured > 0 : a.id > b.id;
  }

  function update(known, unit) {
    if (!newer(unit, known.latest)) {
      showDevice(known);
      return;
    }
    known.latest = unit;
    const first = numeric(unit)[0];
    if (first) known.trend = [...known.trend, first[1]].slice(-TREND_POINTS);
    showDevice(known);
  }

  function showCount() {
    $('#unit-count').textContent = `${unitCount} data unit${unitCount === 1 ? '' : 's'} since opened`;
  }

  function numeric(unit) {
    return Object.entries(unit.measurements || {}).filter(([, v]) => typeof v === 'number' && Number.isFinite(v));
  }

  function showDevice(known) {
    const unit = known.latest;
    const cells = known.row.cells;
    cells[0].textContent = known.channel;
    cells[1].textContent = known.deviceId;
    cells[2].textContent = unit.deviceType;
    cells[3].textContent = Object.entries(unit.measurements || {}).map(([n, v]) => `${n} ${v}`).join(', ');
    cells[3].className = 'reading';
    cells[4].replaceChildren(sparkline(known.trend));
    cells[5].textContent = known.received;
    cells[5].className = 'count';
    cells[6].textContent = when(unit.receivedAt);
    cells[6].className = 'seen';
    cells[6].title = `measured ${when(unit.measuredAt)}`;
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

  const round = (v) => Math.round(v * 100) / 100;

  const path = (coordinates) => coordinates.map(([x, y]) => `${round(x)},${round(y)}`).join(' ');

  function sparkline(values) {
    const line = svg('svg', { class: 'trend', viewBox: '0 0 120 24' });
    if (values.length > 1) {
      const min = Math.min(...values);
      const span = Math.max(...values) - min;
      line.appendChild(svg('polyline', { points: path(values.map((v, i) => [2 + (i * 116) / (values.length - 1),
        span === 0 ? 12 : 22 - ((v - min) / span) * 20])) }));
    }
    return line;
  }

  /**
   * Charts the device's measurements over the last CHART_HOURS: what was measured until now (the server's
   * clock) from GET /data-units/aggregate, what is measured from now on from the live feed, so no reading is
   * in both. A reading measured earlier but arriving later (a device catching up) shows on the next selection.
   */
  async function select(key) {
    const known = devices.get(key);
    if (!known) return;
    for (const other of devices.values()) other.row.classList.toggle('selected', other.key === key);
    $('#device-detail').hidden = false;
    $('#detail-device').textContent = `${known.deviceId} (${known.channel})`;
    $('#detail-span').textContent = `last ${CHART_HOURS} h, ${BUCKET_MINUTES}-minute buckets: average, min–max band`;
    const to = Date.now() + clockOffset;
    const mine = { key, from: to - CHART_HOURS * 3600_000, to, series: new Map(), loaded: false };
    chart = mine;
    const names = numeric(known.latest).map(([name]) => name);
    for (const name of names) mine.series.set(name, []);
    showCharts();
    if (names.length === 0) return;
    const search = new URLSearchParams({ channel: known.channel, deviceId: known.deviceId,
      measurement: names.join(','), from: new Date(mine.from).toISOString(), to: new Date(to).toISOString(),
      bucket: `PT${BUCKET_MINUTES}M`, fn: 'avg,min,max,count' });
    try {
      const answer = await (await get('/data-units/aggregate', search)).json();
      if (chart !== mine) return;
      for (const [name, buckets] of Object.entries(answer.series)) {
        for (const b of buckets) add(mine, name, { start: Date.parse(b.start), avg: b.avg, min: b.min, max: b.max,
          count: b.count });
      }
      mine.loaded = true;
    } catch (error) {
      if (chart !== mine) return;
      $('#detail-span').textContent = `history unavailable (${error.message}); live readings only`;
    }
    showCharts();
  }

  /** A live reading of the selected device, measured after what the aggregate covers, joins its bucket. */
  function extend(state, unit) {
    const at = Date.parse(unit.measuredAt);
    if (!(at >= state.to)) return;
    const start = Math.floor(at / BUCKET_MS) * BUCKET_MS;
    for (const [name, v] of numeric(unit)) add(state, name, { start, avg: v, min: v, max: v, count: 1 });
  }

  /** Adds a bucket to a series, merged with the one of the same start (epoch-aligned, as the server's). */
  function add(state, name, bucket) {
    if (!state.series.has(name)) state.series.set(name, []);
    const buckets = state.series.get(name);
    const same = buckets.find((b) => b.start === bucket.start);
    if (!same) {
      buckets.push(bucket);
      buckets.sort((a, b) => a.start - b.start);
      return;
    }
    same.avg = (same.avg * same.count + bucket.avg * bucket.count) / (same.count + bucket.count);
    same.min = Math.min(same.min, bucket.min);
    same.max = Math.max(same.max, bucket.max);
    same.count += bucket.count;
  }

  /** One small chart per measurement of the selected device, over the last CHART_HOURS as the feed moves on. */
  function showCharts() {
    const known = devices.get(chart.key);
    const end = Math.max(chart.to, ...[...chart.series.values()].flat().map((b) => b.start + BUCKET_MS));
    const start = end - CHART_HOURS * 3600_000;
    const charts = $('#charts');
    charts.dataset.loaded = String(chart.loaded);
    charts.dataset.from = new Date(chart.from).toISOString();
    charts.dataset.to = new Date(chart.to).toISOString();
    charts.replaceChildren(...[...chart.series].map(([name, buckets]) => figure(name,
      buckets.filter((b) => b.start + BUCKET_MS > start), start, end, (known.latest.measurements || {})[name])));
  }

  function figure(name, buckets, start, end, latest) {
    const width = 320;
    const height = 90;
    const pad = 8;
    const figure = document.createElement('figure');
    figure.className = 'chart';
    figure.dataset.measurement = name;
    const caption = document.createElement('figcaption');
    caption.innerHTML = '<span class="name"></span> <b class="value"></b> <small class="range"></small>';
    caption.querySelector('.name').textContent = name;
    const plot = svg('svg', { viewBox: `0 0 ${width} ${height}`, 'data-points': buckets.length,
      'data-avg': buckets.map((b) => round(b.avg)).join(','), role: 'img' });
    plot.appendChild(svg('line', { class: 'axis', x1: 0, y1: height - 1, x2: width, y2: height - 1 }));
    figure.append(caption, plot);
    if (buckets.length === 0) {
      caption.querySelector('.range').textContent = `no readings in the last ${CHART_HOURS} h`;
      plot.setAttribute('aria-label', `${name}: no readings`);
      return figure;
    }
    const min = Math.min(...buckets.map((b) => b.min));
    const max = Math.max(...buckets.map((b) => b.max));
    caption.querySelector('.value').textContent = latest ?? round(buckets[buckets.length - 1].avg);
    caption.querySelector('.range').textContent = `min ${round(min)}, max ${round(max)}`;
    plot.setAttribute('aria-label', `${name}: ${buckets.length} buckets from ${round(min)} to ${round(max)}`);
    const x = (b) => pad + ((b.start + BUCKET_MS / 2 - start) / (end - start)) * (width - 2 * pad);
    const y = (v) => (max === min ? height / 2 : height - pad - ((v - min) / (max - min)) * (height - 2 * pad));
    const band = buckets.map((b) => [x(b), y(b.max)]).concat(buckets.map((b) => [x(b), y(b.min)]).reverse());
    plot.appendChild(svg('polygon', { class: 'band', points: path(band) }));
    const line = buckets.map((b) => [x(b), y(b.avg)]);
    plot.appendChild(svg('polyline', { points: path(line) }));
    const [lastX, lastY] = line[line.length - 1];
    plot.appendChild(svg('circle', { cx: round(lastX), cy: round(lastY), r: 3 }));
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

  $('#registry-more').onclick = () => loadRegistry(session).catch(() => {});
  $('#connect').addEventListener('submit', (event) => {
    event.preventDefault();
    open();
  });
  if (token()) open();
})();
