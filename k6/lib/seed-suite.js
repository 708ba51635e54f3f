// The shape of seed 003's k6 suites, shared by suite1-throughput.js, availability.js and suite2-alarms.js:
//   subscribe   - one WebSocket subscriber connects before anything is sent and stays until it has everything
//                 (or the drain time after ingestion ran out);
//   ingestion   - DEVICES devices each post one EM300-TH uplink every INTERVAL seconds, ITERATIONS times
//                 (an open model: constant-arrival-rate of DEVICES per INTERVAL, device = iteration % DEVICES;
//                 or, with closedLoop, the seed's own shape: one VU per device that posts, waits for the
//                 answer, then sleeps INTERVAL, so a slow answer delays that device's next uplink);
//   consumption - after ingestion, the history must count every data unit (and, with alarms, list every alarm).
// setup() picks a fresh channel (and creates the alarm rule right before sending), teardown() deletes the rule.
import exec from 'k6/execution';
import { check, sleep } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { param, seconds, runChannel, SMOKE } from './presets.js';
import { INGEST_URLS } from './config.js';
import { instancesFor } from './instances.js';
import { postEm300th, postEm300thTo, postEm300thBatch, createRule, deleteRule, storedCount, storedAlarms, waitFor, listen, noLossThresholds } from './pipeline.js';

// Alarm design for suite 2: uplink `iteration` of `device` is hot (35 °C, the rule is temperature > 30) when
// (iteration + device) % 10 == 0, cold otherwise. A hot uplink is followed by nine cold ones, which clear the alarm
// (the default clear condition is "the condition no longer holds"), so every hot uplink raises exactly one new
// alarm and exactly 10 % of the uplinks raise one.
export function isHot(device, iteration) {
  return (iteration + device) % 10 === 0;
}

export function temperatureOf(device, iteration, alarms) {
  if (alarms && isHot(device, iteration)) return 35;
  return 20 + ((iteration * 7 + device) % 50) / 10; // 20.0 .. 24.9 °C
}

const ACCEPTED = { 'status was 202': (r) => r.status === 202 };

export function makeSuite(cfg) {
  const DEVICES = param('DEVICES', cfg.devices[0], cfg.devices[1]);
  const ITERATIONS = param('ITERATIONS', cfg.iterations[0], cfg.iterations[1]);
  const INTERVAL = param('INTERVAL', 1, cfg.smokeInterval || 0.5); // seconds between one device's uplinks
  const START_DELAY = param('START_DELAY', 3, 1); // seconds the subscriber gets before the first uplink
  const DRAIN = param('DRAIN', 60, 20); // longest wait after ingestion for what is still in flight
  const STALL = param('STALL', 15, 8); // give up earlier when nothing new arrived for this long
  // BATCH > 1: the devices sit behind gateways (network servers) that post BATCH devices' uplinks in one batch
  // request per INTERVAL; the uplinks, their timing per device and every check stay the same.
  const BATCH = param('BATCH', 1, 1);
  if (DEVICES % BATCH !== 0) throw new Error(`DEVICES (${DEVICES}) must be a multiple of BATCH (${BATCH})`);
  const SENDERS = DEVICES / BATCH;
  const PLANNED = DEVICES * ITERATIONS;
  const PLANNED_REQUESTS = SENDERS * ITERATIONS;
  const INGEST_SECONDS = ITERATIONS * INTERVAL;
  const ALARMS = !!cfg.alarms;
  const CLOSED = !!cfg.closedLoop;
  // The closed loop's devices spread over these ingest instances (k6/lib/instances.js) when there are several.
  const INGEST_ADDRESSES = cfg.ingestUrls || INGEST_URLS;
  if (CLOSED && (ALARMS || BATCH > 1)) throw new Error('closedLoop is the seed shape: single POSTs, no alarms');
  let expectedAlarms = 0;
  if (ALARMS) {
    for (let i = 0; i < ITERATIONS; i++) for (let d = 0; d < DEVICES; d++) if (isHot(d, i)) expectedAlarms++;
  }
  const EXPECTED_ALARMS = expectedAlarms;
  // GET /alarms lists at most 1,000 alarms per request and has no cursor: above that the stored check sees 1,000.
  const LISTABLE_ALARMS = Math.min(EXPECTED_ALARMS, 1000);

  const metrics = {
    expected: new Counter('data_units_expected'),
    accepted: new Counter('uplinks_accepted'),
    received: new Counter('data_units_received'),
    duplicates: new Counter('data_units_duplicates'),
    stored: new Counter('data_units_stored'),
    timeLapse: new Trend('time_lapse', true),
    alarmsExpected: new Counter('alarms_expected'),
    alarmsReceived: new Counter('alarms_received'),
    alarmsStored: new Counter('alarms_stored'),
    timeLapseFull: new Trend('time_lapse_full', true),
  };

  const thresholds = {
    // No threshold on dropped_iterations: k6 may count the one iteration it schedules at the very end as dropped.
    // uplinks_accepted is exact, so an uplink k6 could not send in time fails the run there.
    ...noLossThresholds(PLANNED),
    'http_req_duration{scenario:ingestion}': ['p(99)>=0'],
    'http_req_failed{scenario:ingestion}': ['rate>=0'],
  };
  if (ALARMS) {
    thresholds.alarms_received = [`count==${EXPECTED_ALARMS}`];
    thresholds.alarms_stored = [`count==${LISTABLE_ALARMS}`];
  } else {
    thresholds.data_units_received = [`count==${PLANNED}`];
  }
  for (const [metric, [full, smoke]] of Object.entries(cfg.latencyP95 || {})) {
    const bound = param(`${metric.toUpperCase()}_P95`, full, smoke);
    thresholds[metric] = [`p(95)<=${bound}`];
  }

  const options = {
    scenarios: {
      subscribe: {
        executor: 'shared-iterations', vus: 1, iterations: 1, exec: 'subscribe',
        maxDuration: seconds(START_DELAY + INGEST_SECONDS + DRAIN + 30),
      },
      ingestion: CLOSED ? {
        executor: 'per-vu-iterations', exec: 'ingestion', startTime: seconds(START_DELAY),
        vus: SENDERS, iterations: ITERATIONS, maxDuration: seconds(3 * INGEST_SECONDS + 60), gracefulStop: '30s',
      } : {
        executor: 'constant-arrival-rate', exec: 'ingestion', startTime: seconds(START_DELAY),
        rate: SENDERS, timeUnit: seconds(INTERVAL), duration: seconds(INGEST_SECONDS),
        // k6 starts VUs beyond the pre-allocated ones lazily, too slowly to keep the schedule when latency jumps:
        // pre-allocate enough for half a second of uplinks in flight (1,000 VUs take about 250 MB).
        preAllocatedVUs: Math.min(SENDERS, Math.max(50, Math.ceil(SENDERS / INTERVAL / 2))),
        maxVUs: Math.max(SENDERS, 50), gracefulStop: '30s',
      },
      consumption: {
        executor: 'shared-iterations', vus: 1, iterations: 1, exec: 'consumption',
        startTime: seconds(START_DELAY + INGEST_SECONDS + 1), maxDuration: seconds(DRAIN + 30),
      },
    },
    thresholds,
    summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  };

  // Closed loop: this VU's device and the uplinks it has sent (every VU has its own module state).
  let closedDevice = null;
  let closedDeviceId = null;
  let closedIteration = 0;
  let closedInstances = null;

  function setup() {
    const channel = runChannel(cfg.name);
    metrics.expected.add(PLANNED);
    let ruleId = null;
    if (ALARMS) {
      metrics.alarmsExpected.add(EXPECTED_ALARMS);
      // Right before sending: the rule applies to the next data unit, so there is no waiting period.
      ruleId = createRule({ name: `${cfg.name} hot`, filter: { channel }, condition: 'temperature > 30', severity: 'MAJOR' });
    }
    console.log(`${cfg.name}: channel ${channel}, ${DEVICES} devices x ${ITERATIONS} uplinks every ${INTERVAL} s` +
      (BATCH > 1 ? ` in batches of ${BATCH}` : '') +
      (ALARMS ? `, ${EXPECTED_ALARMS} alarms expected` : ''));
    return { channel, ruleId, start: Date.now() };
  }

  function subscribe(data) {
    const seen = new Set();
    const alarms = new Set();
    listen({
      channel: data.channel,
      dataUnits: ALARMS ? null : (unit, receipt) => {
        if (seen.has(unit.id)) { metrics.duplicates.add(1); return; }
        seen.add(unit.id);
        metrics.received.add(1);
        metrics.timeLapse.add(receipt - Date.parse(unit.receivedAt));
      },
      alarms: ALARMS ? (alarm, receipt) => {
        if (alarm.state !== 'ACTIVE' || alarm.acknowledged || alarms.has(alarm.alarmId)) return;
        alarms.add(alarm.alarmId);
        metrics.alarmsReceived.add(1);
        metrics.timeLapse.add(receipt - Date.parse(alarm.raisedAt));
        metrics.timeLapseFull.add(receipt - Date.parse(alarm.receivedAt));
      } : null,
      done: () => (ALARMS ? alarms.size >= EXPECTED_ALARMS : seen.size >= PLANNED),
      deadlineMs: data.start + (START_DELAY + INGEST_SECONDS + DRAIN) * 1000,
    });
    if (ALARMS) {
      console.log(`Expected: ${EXPECTED_ALARMS}; Actual: ${alarms.size} (alarms on the WebSocket)`);
      check(alarms.size, { 'alarms were all received': (n) => n === EXPECTED_ALARMS });
    } else {
      console.log(`Expected: ${PLANNED}; Actual: ${seen.size} (data units on the WebSocket)`);
      check(seen.size, { 'data units were all received': (n) => n === PLANNED });
    }
  }

  function ingestion(data) {
    if (CLOSED) {
      // One VU per device for the whole run: its id names the device, its own count numbers the uplinks. Both are
      // kept in the VU's module state: reading exec.vu builds k6's info objects anew, a tenth of k6's CPU per POST.
      if (closedDevice === null) {
        closedDevice = exec.vu.idInTest;
        closedDeviceId = `${cfg.name}-${closedDevice}`;
        if (INGEST_ADDRESSES.length > 1) {
          closedInstances = instancesFor(INGEST_ADDRESSES, closedDevice - 1, (url, home, temperature, id) =>
            postEm300thTo(url, data.channel, closedDeviceId, temperature, id, home));
        }
      }
      const temperature = temperatureOf(closedDevice, closedIteration, false);
      let res;
      if (closedInstances === null) {
        res = postEm300th(data.channel, closedDeviceId, temperature);
      } else {
        // Over several instances an uplink may be sent twice (the instance that took it died before answering): its
        // client id (scoped by ingest to the channel and device) makes both the same event.
        res = closedInstances.post(temperature, `u${closedIteration}`);
      }
      closedIteration++;
      if (check(res, ACCEPTED)) metrics.accepted.add(1);
      sleep(INTERVAL);
      return;
    }
    const k = exec.scenario.iterationInTest;
    if (k >= PLANNED_REQUESTS) return; // constant-arrival-rate may start one more at the very end
    const sender = k % SENDERS;
    const iteration = Math.floor(k / SENDERS);
    if (BATCH === 1) {
      const res = postEm300th(data.channel, `${cfg.name}-${sender}`, temperatureOf(sender, iteration, ALARMS));
      if (check(res, ACCEPTED)) metrics.accepted.add(1);
      return;
    }
    const items = [];
    for (let device = sender * BATCH; device < (sender + 1) * BATCH; device++) {
      items.push({ deviceId: `${cfg.name}-${device}`, temperature: temperatureOf(device, iteration, ALARMS) });
    }
    const res = postEm300thBatch(data.channel, items);
    if (check(res, ACCEPTED)) metrics.accepted.add(BATCH);
  }

  function consumption(data) {
    const stored = waitFor(() => storedCount(data.channel), PLANNED, DRAIN, STALL);
    metrics.stored.add(Math.max(stored, 0));
    console.log(`Expected: ${PLANNED}; Stored: ${stored} (data units counted by GET /data-units/count)`);
    check(stored, { 'data units were all stored': (n) => n === PLANNED });
    if (ALARMS) {
      const alarms = waitFor(() => storedAlarms(data.channel), LISTABLE_ALARMS, DRAIN, STALL);
      metrics.alarmsStored.add(Math.max(alarms, 0));
      console.log(`Expected: ${EXPECTED_ALARMS}; Stored: ${alarms} (alarms listed by GET /alarms` +
        (LISTABLE_ALARMS < EXPECTED_ALARMS ? `, which lists at most ${LISTABLE_ALARMS})` : ')'));
      check(alarms, { 'alarms were all stored': (n) => n === LISTABLE_ALARMS });
    }
  }

  function teardown(data) {
    if (data && data.ruleId) deleteRule(data.ruleId);
  }

  return {
    options, setup, subscribe, ingestion, consumption, teardown,
    size: { DEVICES, ITERATIONS, INTERVAL, BATCH, PLANNED, PLANNED_REQUESTS, EXPECTED_ALARMS, INGEST_SECONDS, SMOKE },
  };
}
