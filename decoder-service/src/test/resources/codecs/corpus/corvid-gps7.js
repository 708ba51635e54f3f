/*
 * Corvid GPS7 asset tracker (an invented device; test resource of the codec corpus).
 *
 * fPort 1, position, 18 bytes: fix time (uint32 BE, Unix seconds), latitude and longitude (int32 BE, 1e-7 deg),
 *   altitude m (int16 BE), HDOP 0.1 (uint8), satellites, battery %, flags (bit 0 fix valid, bit 1 moving).
 * fPort 2, heartbeat, 8 bytes: time (uint32 BE, Unix seconds), battery mV (uint16 BE), temperature degC (int8),
 *   reset count.
 */
const POSITION_LENGTH = 18;
const HEARTBEAT_LENGTH = 8;
const BATTERY_LOW_MV = 3300;

const readUint32 = (bytes, offset) => {
  let value = 0;
  // Multiplying instead of shifting keeps values above 2^31 positive.
  for (let i = 0; i < 4; i++) {
    value = value * 256 + bytes[offset + i];
  }
  return value;
};
const readInt32 = (bytes, offset) =>
  (bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3];
const readInt16 = (bytes, offset) => (((bytes[offset] << 8) | bytes[offset + 1]) << 16) >> 16;
const tooShort = (fPort, bytes, expected) =>
  ({ errors: [`fPort ${fPort} payload is ${bytes.length} bytes, expected ${expected}`] });

function position(bytes) {
  if (bytes.length !== POSITION_LENGTH) {
    return tooShort(1, bytes, POSITION_LENGTH);
  }
  const flags = bytes[17];
  const fix = (flags & 0x01) !== 0;
  const warnings = [];
  if (!fix) {
    warnings.push('no GPS fix');
  }
  return {
    data: {
      time: new Date(readUint32(bytes, 0) * 1000),
      fix,
      moving: (flags & 0x02) !== 0,
      // Without a fix the receiver sends its last coordinates, which must not pass for the current ones.
      position: fix
        ? {
          latitude: readInt32(bytes, 4) / 1e7,
          longitude: readInt32(bytes, 8) / 1e7,
          altitude: readInt16(bytes, 12),
        }
        : null,
      hdop: fix ? bytes[14] / 10 : null,
      satellites: bytes[15],
      battery: bytes[16],
    },
    warnings,
    errors: [],
  };
}

function heartbeat(bytes) {
  if (bytes.length !== HEARTBEAT_LENGTH) {
    return tooShort(2, bytes, HEARTBEAT_LENGTH);
  }
  const batteryMv = (bytes[4] << 8) | bytes[5];
  return {
    data: {
      time: new Date(readUint32(bytes, 0) * 1000),
      batteryVoltage: batteryMv / 1000,
      temperature: (bytes[6] << 24) >> 24,
      resetCount: bytes[7],
    },
    warnings: batteryMv < BATTERY_LOW_MV ? ['battery low'] : [],
    errors: [],
  };
}

function decodeUplink(input) {
  switch (input.fPort) {
    case 1:
      return position(input.bytes);
    case 2:
      return heartbeat(input.bytes);
    default:
      return { errors: [`unknown fPort ${input.fPort}`] };
  }
}
