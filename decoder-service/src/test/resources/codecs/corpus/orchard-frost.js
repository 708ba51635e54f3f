/*
 * Orchard FROST leaf temperature and wetness sensor for frost protection (an invented device; test resource of
 * the codec corpus).
 *
 * fPort 1, current, 4 bytes: leaf temperature 0.01 degC (int16 BE), leaf wetness %, battery %.
 * fPort 3, history, 7 + 2n bytes: time of the first reading (uint32 BE, Unix seconds), interval s (uint16 BE),
 *   count n (at most 22), then n leaf temperatures 0.01 degC (int16 BE), oldest first.
 */
const HISTORY_HEADER = 7;
// One reading at or below zero can be a sensor in a cold draught; frost is this many in a row.
const FROST_RUN = 2;

const int16 = (bytes, i) => (((bytes[i] << 8) | bytes[i + 1]) << 16) >> 16;

function current(bytes) {
  if (bytes.length !== 4) {
    return { errors: [`fPort 1 payload is ${bytes.length} bytes, expected 4`] };
  }
  const temperature = int16(bytes, 0) / 100;
  return {
    data: { leafTemperature: temperature, leafWetness: bytes[2], battery: bytes[3], frostRisk: temperature <= 1 },
    warnings: bytes[3] < 15 ? ['battery low'] : [],
    errors: [],
  };
}

function history(bytes) {
  const frame = {
    bytes,
    get start() {
      return ((this.bytes[0] << 24) >>> 0) + (this.bytes[1] << 16) + (this.bytes[2] << 8) + this.bytes[3];
    },
    get interval() {
      return (this.bytes[4] << 8) | this.bytes[5];
    },
    get count() {
      return this.bytes[6];
    },
    get complete() {
      return this.bytes.length >= HISTORY_HEADER && this.bytes.length === HISTORY_HEADER + 2 * this.count;
    },
  };
  if (!frame.complete) {
    return { errors: [`history frame of ${bytes.length} bytes does not match its reading count`] };
  }
  const readings = [];
  for (let i = 0; i < frame.count; i++) {
    readings.push({
      t: new Date((frame.start + i * frame.interval) * 1000),
      v: int16(bytes, HISTORY_HEADER + 2 * i) / 100,
    });
  }
  let firstFrost = null;
  search:
  for (let i = 0; i < readings.length; i++) {
    for (let k = 0; k < FROST_RUN; k++) {
      if (i + k >= readings.length || readings[i + k].v > 0) {
        continue search;
      }
    }
    firstFrost = readings[i].t;
    break;
  }
  return {
    data: {
      intervalSeconds: frame.interval,
      readings,
      minTemperature: readings.length ? Math.min(...readings.map((r) => r.v)) : null,
      frostDetected: firstFrost !== null,
      firstFrost,
    },
    warnings: [],
    errors: [],
  };
}

function decodeUplink(input) {
  if (input.fPort === 1) {
    return current(input.bytes);
  }
  if (input.fPort === 3) {
    return history(input.bytes);
  }
  return { errors: [`unknown fPort ${input.fPort}`] };
}
