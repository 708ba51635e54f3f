/*
 * Kestrel WS weather station (an invented device; test resource of the codec corpus). TTS decodeUplink with a
 * normalizeUplink whose data is a list, one entry per observation, as the normalized payload allows.
 *
 * fPort 3: frame type 0x01, then measurements of 6 bytes: measurement id (uint16 LE), value in thousandths of
 * the unit (int32 LE).
 */
const MEASUREMENT_PORT = 3;
const FRAME_TYPE = 0x01;
const ENTRY_SIZE = 6;

const MEASUREMENTS = new Map([
  [0x0a01, { type: 'Air Temperature', normalized: ['air', 'temperature'] }],
  [0x0a02, { type: 'Air Humidity', normalized: ['air', 'relativeHumidity'] }],
  [0x0a03, { type: 'Barometric Pressure', normalized: ['air', 'pressure'] }],
  [0x0a10, { type: 'Wind Speed', normalized: ['wind', 'speed'] }],
  [0x0a11, { type: 'Wind Direction', normalized: ['wind', 'direction'] }],
  [0x0a20, { type: 'Rainfall Hourly' }],
]);

const hex = (id) => `0x${id.toString(16).padStart(4, '0')}`;

function decodeUplink(input) {
  const { bytes, fPort } = input;
  if (fPort !== MEASUREMENT_PORT) {
    return { errors: [`unknown fPort ${fPort}`] };
  }
  if (bytes[0] !== FRAME_TYPE || (bytes.length - 1) % ENTRY_SIZE !== 0) {
    return { errors: [`not a measurement frame: type ${bytes[0]}, ${bytes.length} bytes`] };
  }
  const messages = [];
  const warnings = [];
  for (let at = 1; at < bytes.length; at += ENTRY_SIZE) {
    const measurementId = bytes[at] | (bytes[at + 1] << 8);
    const raw = bytes[at + 2] | (bytes[at + 3] << 8) | (bytes[at + 4] << 16) | (bytes[at + 5] << 24);
    const known = MEASUREMENTS.get(measurementId);
    if (!known) {
      warnings.push(`unknown measurement id ${hex(measurementId)}`);
    }
    messages.push({ type: known?.type ?? 'Unknown', measurementId, measurementValue: raw / 1000 });
  }
  return { data: { messages }, warnings, errors: [] };
}

function normalizeUplink(input) {
  const observation = {};
  for (const { measurementId, measurementValue } of input.data.messages) {
    const path = MEASUREMENTS.get(measurementId)?.normalized;
    if (path) {
      const [group, field] = path;
      observation[group] = { ...observation[group], [field]: measurementValue };
    }
  }
  return { data: [observation], warnings: [], errors: [] };
}

// Vendors export for their unit tests under Node; the decoder has no module, so this is skipped there.
if (typeof module !== 'undefined') {
  module.exports = { decodeUplink, normalizeUplink };
}
