// The seed reports' own figures, quoted next to ours in every report. Sources: ../shared/seeds/ (003 = iot-core /
// Sensae Console "Performance", k6; 000 = Mainflux fan-out on DigitalOcean; 004 = Redis pub/sub fan-out; 001 =
// mosquitto with mqtt-malaria bees; 002 = Kafka on Mesos with `stress`). '' = the seed gives no such figure.

// Seed 003, Test Suite 1, throughput test: 500 devices x 60 iterations at 1/s.
export const SUITE1 = {
  setup: '500 devices x 60 uplinks at 1/s, 1 decoder, 1 processor',
  local: {
    requests: '30,004', reqRate: '98.6/s', failed: '0 (0.00 %)', status202: '100 %', stored: 'all stored (check passed)',
    received: 'not measured ("the subscription didn\'t start")', httpP95: '1.33 ms', httpMax: '1.28 s',
  },
  e2: {
    requests: '30,004', reqRate: '99.2/s', failed: '11,673 (38.90 %)', status202: '61 %', stored: 'check failed',
    received: 'not measured', httpP95: '699 ms', httpMax: '2.53 s',
  },
};

// Seed 003, Availability test: 100 devices x 100 iterations at 1/s; time_lapse = receivedAt -> WebSocket.
export const AVAILABILITY = {
  setup: '100 devices x 100 uplinks at 1/s',
  local: {
    reqRate: '30.1/s', failed: '0 (0.00 %)', expected: '10,000', actual: '10,000', httpP95: '4.56 ms',
    tlAvg: '12.9', tlMed: '9', tlP90: '24', tlP95: '35', tlMax: '82',
  },
  e2: {
    reqRate: '30.2/s', failed: '0 (0.00 %)', expected: '10,000', actual: '10,000', httpP95: '5.67 ms',
    tlAvg: '125.5', tlMed: '29', tlP90: '120', tlP95: '1,090', tlMax: '2,045',
  },
};

// Seed 003, Test Suite 2: 100 devices x 100 iterations, 1 rule matching ~10 %, after waiting 6 (local) or 2 (e2)
// minutes for the rule to apply.
export const SUITE2 = {
  setup: '100 devices x 100 uplinks at 1/s, 1 rule matching ~10 %, created 2-6 min before sending',
  local: {
    reqRate: '15.1/s', failed: '0 (0.00 %)', expected: '1,000', actual: '991 (99.1 %)', stored: 'check passed',
    tlAvg: '20.2', tlMed: '7', tlP90: '14', tlP95: '22', tlMax: '1,046',
    tlfAvg: '78.1', tlfMed: '16', tlfP90: '36', tlfP95: '62.5', tlfMax: '2,433',
  },
  e2: {
    reqRate: '23.8/s', failed: '0 (0.00 %)', expected: '1,000', actual: '0 (0 %)', stored: 'check failed',
    tlAvg: '', tlMed: '', tlP90: '', tlP95: '', tlMax: '', tlfAvg: '', tlfMed: '', tlfP90: '', tlfP95: '', tlfMax: '',
  },
};

// Seeds 000 (Mainflux MQTT, QoS 2, 1,000 subscribers, 1 msg/s for 5 min, 3 x 8-vCPU nodes) and 004 (Redis
// pub/sub, 800 subscribers, single instance).
export const FANOUT = {
  mainflux: { setup: '1 publisher at 1 msg/s, 1,000 subscribers, 5 min', loss: 'none detected', p95: '130 ms', max: '207 ms' },
  redis: [
    { rate: '1 msg/s', received: '10,400', mean: '2.34 ms', max: '6.33 ms' },
    { rate: '10 msg/s', received: '228,000', mean: '6.67 ms', max: '18.2 ms' },
    { rate: '100 msg/s', received: '3,360,000', mean: '34.7 ms', max: '97.4 ms' },
  ],
};

// Seed 001: mosquitto 1.2.3 beta on a 2-CPU box, 500-byte messages at 1/6 Hz per client.
export const MANY_DEVICES = [
  { clients: '500', rate: '~85 msg/s', cpu: '9-11 %' },
  { clients: '1,000', rate: '~165 msg/s', cpu: '27 %' },
  { clients: '2,000', rate: '~330 msg/s', cpu: '67-68 %' },
  { clients: '2,500', rate: '~410 msg/s', cpu: '56 %' },
  { clients: '3,000', rate: '~500 msg/s', cpu: '71 %' },
  { clients: '3,000 + X added later', rate: 'no figure given', cpu: '' },
  { clients: '4,000', rate: 'FAILURE', cpu: '' },
];

// Seed 002: Kafka on 3 n1-standard-4 brokers, 10 KB messages; overloaded at 2 clients x 700 msg/s, so the 50 %
// point was 350 msg/s per client; stress = `stress` with 98 % memory over 4 threads plus 10 GB disk writes each.
export const CAPACITY = {
  max: '2 x 700 msg/s of 10 KB (overloaded after 850 s)', half: '350 msg/s per client',
  stressed: 'not reported (experiment 3 "running at the moment")', repeats: '"performed multiple times", no variance given',
};
