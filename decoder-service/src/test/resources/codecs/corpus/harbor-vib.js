/*
 * Harbor VIB vibration sensor for pumps and motors (an invented device; test resource of the codec corpus).
 *
 * fPort 20, samples: count n (1-8), range code (bits 0-1: 1, 2, 4 or 8 mg per LSB), then n samples of
 *   x, y, z acceleration (int16 BE each, 6 bytes a sample).
 * fPort 21, threshold alarm, 4 bytes: axis (0 x, 1 y, 2 z), peak mg (uint16 BE), alarm level (1 warning,
 *   2 critical).
 */
const SAMPLES_PORT = 20;
const ALARM_PORT = 21;
const MAX_SAMPLES = 8;
const MG_PER_LSB = [1, 2, 4, 8];
const AXES = ['x', 'y', 'z'];
const ALARM_LEVELS = [null, 'warning', 'critical'];
const PEAK_WARNING_G = 2;

const int16 = (bytes, at) => (((bytes[at] << 8) | bytes[at + 1]) << 16) >> 16;
const round = (value, digits = 3) => Number(value.toFixed(digits));
const rms = (...values) => Math.sqrt(values.reduce((sum, v) => sum + v * v, 0) / values.length);

function* samples(bytes, start, count) {
  for (let i = 0; i < count; i++) {
    const at = start + i * 6;
    yield [int16(bytes, at), int16(bytes, at + 2), int16(bytes, at + 4)];
  }
}

function decodeSamples(bytes) {
  const [count, rangeCode] = bytes;
  const expected = 2 + 6 * count;
  if (count < 1 || count > MAX_SAMPLES || bytes.length !== expected) {
    return { errors: [`sample frame of ${bytes.length} bytes does not hold ${count} samples`] };
  }
  const mgPerLsb = MG_PER_LSB[rangeCode & 0x03];
  const inG = [...samples(bytes, 2, count)].map((sample) => sample.map((raw) => (raw * mgPerLsb) / 1000));
  const axes = Object.fromEntries(AXES.map((axis, i) => [axis, inG.map((sample) => round(sample[i]))]));
  const peak = Math.max(...inG.flatMap((sample) => sample.map(Math.abs)));
  const summary = {
    sampleCount: count,
    rangeG: (32768 * mgPerLsb) / 1000,
    peak: round(peak),
    rms: AXES.map((axis, i) => round(rms(...inG.map((sample) => sample[i])))),
  };
  return {
    data: { ...summary, ...axes },
    warnings: peak > PEAK_WARNING_G ? [`peak ${round(peak)} g above ${PEAK_WARNING_G} g`] : [],
    errors: [],
  };
}

function decodeAlarm(bytes) {
  if (bytes.length !== 4 || bytes[0] >= AXES.length || !ALARM_LEVELS[bytes[3]]) {
    return { errors: ['malformed alarm frame'] };
  }
  return {
    data: {
      alarm: true,
      axis: AXES[bytes[0]],
      peak: ((bytes[1] << 8) | bytes[2]) / 1000,
      level: ALARM_LEVELS[bytes[3]],
    },
    warnings: [],
    errors: [],
  };
}

function decodeUplink({ fPort, bytes }) {
  if (fPort === SAMPLES_PORT) {
    return decodeSamples(bytes);
  }
  if (fPort === ALARM_PORT) {
    return decodeAlarm(bytes);
  }
  return { errors: [`unknown fPort ${fPort}`] };
}
