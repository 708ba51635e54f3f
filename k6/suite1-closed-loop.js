// Suite 1 in the seed's own closed-loop shape (seed 003 "Test Suite 1"): a WebSocket subscriber connects first;
// DEVICES VUs (500), one per device, each POST one EM300-TH uplink, wait for the answer, sleep INTERVAL (1 s), and
// do that ITERATIONS times (60); then every data unit must be stored and must have reached the subscriber. What
// real gateways do: a slow answer delays the next uplink instead of piling up. time_lapse = the uplink's
// receivedAt at ingest -> WebSocket receipt. Run: k6/run suite1-closed-loop [--smoke]   (or k6 run -e DEVICES=5000 k6/suite1-closed-loop.js)
import { suite1 } from './lib/suite1.js';

const { suite, handleSummary: summary } = suite1(true);

export const options = suite.options;
export const setup = suite.setup;
export const teardown = suite.teardown;
export function subscribe(data) { suite.subscribe(data); }
export function ingestion(data) { suite.ingestion(data); }
export function consumption(data) { suite.consumption(data); }
export const handleSummary = summary;
