// Suite 1, throughput (seed 003 "Test Suite 1"): a WebSocket subscriber connects first; DEVICES devices (500)
// post one EM300-TH uplink per second for ITERATIONS iterations (60); then every data unit must be stored (count
// endpoint) and must have reached the subscriber. time_lapse = the uplink's receivedAt at ingest -> WebSocket
// receipt. Run: k6/run suite1-throughput [--smoke]   (or k6 run -e DEVICES=5000 k6/suite1-throughput.js)
import { suite1 } from './lib/suite1.js';

const { suite, handleSummary: summary } = suite1(false);

export const options = suite.options;
export const setup = suite.setup;
export const teardown = suite.teardown;
export function subscribe(data) { suite.subscribe(data); }
export function ingestion(data) { suite.ingestion(data); }
export function consumption(data) { suite.consumption(data); }
export const handleSummary = summary;
