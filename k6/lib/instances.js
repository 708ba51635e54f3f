// Client-side balancing over several ingest instances, as a load balancer with readiness checks does it: each device
// posts to its own instance; when that instance refuses (no connection, a reset, 503) the device sends the same
// uplink to the next instance, as a balancer retries on another backend, and stays there until its own answers ready
// again, asked at most every PROBE seconds per device, so devices come back spread over PROBE seconds rather than all
// in one wave.
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { param } from './presets.js';

// Uplinks an instance refused and the next one was sent: the balancer's retries, which a device never sees.
export const failovers = new Counter('ingest_failovers');

const PROBE_MS = param('PROBE', 2, 1) * 1000;
// A readiness check is never a failed request: refused (status 0) or 503 only means "not back yet".
const probeParams = { tags: { name: 'GET /actuator/health/readiness' }, responseCallback: http.expectedStatuses(0, 200, 503) };
// What the balancer retries on the next instance (no connection, a reset, 503): never a failed request of the device's;
// anything else an instance answers is the device's answer.
export const RETRIED_ELSEWHERE = http.expectedStatuses(0, 503, { min: 200, max: 399 });

function refused(res) {
  return res.status === 0 || res.status === 503;
}

// The instances a device at index uses, and send(baseUrl, home, ...args), which posts its uplink (args) to one of them
// (home: the first attempt) and returns the response; post(...args) sends one uplink.
export function instancesFor(urls, index, send) {
  const home = urls[index % urls.length];
  const next = urls[(index + 1) % urls.length];
  let away = false;
  let probeAt = 0;
  return {
    post(...args) {
      if (away && Date.now() >= probeAt) {
        if (http.get(`${home}/actuator/health/readiness`, probeParams).status === 200) away = false;
        else probeAt = Date.now() + PROBE_MS;
      }
      if (!away) {
        const res = send(home, true, ...args);
        if (!refused(res)) return res;
        failovers.add(1);
        away = true;
        probeAt = Date.now() + PROBE_MS;
      }
      return send(next, false, ...args);
    },
  };
}
