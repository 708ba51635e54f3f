/*
 * Lumen PARK on-street parking sensor (an invented device; test resource of the codec corpus).
 * ChirpStack v3 Decode(fPort, bytes, variables).
 *
 * fPort 1, occupancy, 8 bytes: flags (bit 0 occupied, bit 1 confirmed by radar), magnetic field x, y, z
 *   (int16 BE, 0.1 uT each), temperature degC (int8).
 * fPort 2, heartbeat, 7 bytes: battery %, firmware major, minor, patch, uptime hours (uint16 BE), reason of the
 *   last reset.
 */
var RESET_REASONS = ['power on', 'watchdog', 'brown-out', 'software', 'pin'];

function int16(bytes, i) {
  var value = (bytes[i] << 8) | bytes[i + 1];
  return (value & 0x8000) ? value - 0x10000 : value;
}

function int8(value) {
  return value << 24 >> 24;
}

function occupancy(bytes) {
  var occupied = (bytes[0] & 0x01) !== 0;
  return {
    occupied: occupied,
    state: occupied ? 'occupied' : 'free',
    radarConfirmed: (bytes[0] & 0x02) !== 0,
    magneticField: {
      x: int16(bytes, 1) / 10,
      y: int16(bytes, 3) / 10,
      z: int16(bytes, 5) / 10
    },
    temperature: int8(bytes[7])
  };
}

function heartbeat(bytes) {
  return {
    battery: bytes[0],
    firmware: 'v' + bytes[1] + '.' + bytes[2] + '.' + bytes[3],
    uptimeHours: (bytes[4] << 8) | bytes[5],
    // A reason code from a newer firmware is not guessed at.
    resetReason: bytes[6] < RESET_REASONS.length ? RESET_REASONS[bytes[6]] : null
  };
}

function Decode(fPort, bytes, variables) {
  switch (fPort) {
    case 1:
      return occupancy(bytes);
    case 2:
      return heartbeat(bytes);
    default:
      return { error: 'unknown fPort ' + fPort };
  }
}
