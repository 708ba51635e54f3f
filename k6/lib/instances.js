// Client-side balancing over several ingest instances, as a load balancer with readiness checks does it: each device
// posts to its own instance; when that instance refuses (no connection, a reset, 503) the device sends the same
// uplink to the next instance and stays there until its own answers ready again, asked at most every PROBE seconds
// per device, so devices come back spread over PROBE seconds rather than all in one wave.
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { param } from './presets.js';

// Uplinks an instance refused and the next one was sent (the refused attempt is also in http_req_failed).
export const failovers = new Counter('ingest_failovers');

const PROBE_MS = param('PROBE', 2, 1) * 1000;
// A readiness check is never a failed request: refused (status 0) or 503 only means "not back yet".
const probeParams = { tags: { name: 'GET /actuator/health/readiness' }, responseCallback: http.expectedStatuses(0, 200, 503) };

// The instances a device at index uses: send(baseUrl) posts its uplink to one of them and returns the response.
export function instancesFor(urls, index) {
  const home = urls[index % urls.length];
  const next = urls[(index + 1) % urls.length];
  let away = false;
  let probeAt = 0;
  return {
    post(send) {
      if (away && Date.now() >= probeAt) {
        if (http.get(`${home}/actuator/health/readiness`, probeParams).status === 200) away = false;
        else probeAt = Date.now() + PROBE_MS;
      }
      if (!away) {
        const res = send(home);
        if (res.status !== 0 && res.status !== 503) return res;
        failovers.add(1);
        away = true;
        probeAt = Date.now() + PROBE_MS;
      }
      return send(next);
    },
  };
}
