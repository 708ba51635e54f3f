/*
 * Aerowell TH10 temperature and humidity sensor (an invented device; test resource of the codec corpus).
 *
 * fPort 2, periodic report, 8 bytes:
 *   0-1 battery voltage, mV (uint16 BE)
 *   2-3 temperature, 0.01 degC (int16 BE)
 *   4   relative humidity, 0.5 %
 *   5   status: bit 0 button pressed since the last report, bit 1 external probe connected
 *   6-7 external probe temperature, 0.1 degC (int16 BE), 0x7FFF when no probe answers
 * fPort 3, device information: firmware major, minor, patch, hardware revision, serial number (4 bytes),
 *   model name (ASCII, optionally NUL-terminated)
 */
var PERIODIC_LENGTH = 8;
var INFO_MIN_LENGTH = 8;
var BATTERY_LOW_MV = 2500;
var PROBE_ABSENT = 0x7fff;

function readUInt16BE(bytes, offset) {
  return (bytes[offset] << 8) | bytes[offset + 1];
}

function readInt16BE(bytes, offset) {
  // The high byte goes to bits 24-31 first so that the arithmetic shift back copies its sign bit.
  return (bytes[offset] << 24 >> 16) | bytes[offset + 1];
}

function toHexString(bytes, start, end) {
  var hex = '';
  for (var i = start; i < end; i++) {
    hex += ('0' + (bytes[i] & 0xff).toString(16)).slice(-2);
  }
  return hex.toUpperCase();
}

function readAscii(bytes, start, end) {
  var text = '';
  for (var i = start; i < end; i++) {
    if (bytes[i] === 0) {
      break;
    }
    text += String.fromCharCode(bytes[i]);
  }
  return text;
}

function decodePeriodic(bytes) {
  var warnings = [];
  var batteryMv = readUInt16BE(bytes, 0);
  var probe = readInt16BE(bytes, 6);
  var data = {
    batteryVoltage: batteryMv / 1000,
    temperature: readInt16BE(bytes, 2) / 100,
    humidity: bytes[4] / 2,
    buttonPressed: (bytes[5] & 0x01) !== 0,
    probeConnected: (bytes[5] & 0x02) !== 0,
    probeTemperature: probe === PROBE_ABSENT ? null : probe / 10
  };
  if (batteryMv < BATTERY_LOW_MV) {
    warnings.push('battery low');
  }
  return { data: data, warnings: warnings, errors: [] };
}

function decodeInfo(bytes) {
  return {
    data: {
      firmwareVersion: bytes[0] + '.' + bytes[1] + '.' + bytes[2],
      hardwareRevision: bytes[3],
      serialNumber: toHexString(bytes, 4, 8),
      model: readAscii(bytes, 8, bytes.length)
    },
    warnings: [],
    errors: []
  };
}

function decodeUplink(input) {
  var bytes = input.bytes;
  if (input.fPort === 2) {
    if (bytes.length !== PERIODIC_LENGTH) {
      return { errors: ['fPort 2 payload is ' + bytes.length + ' bytes, expected ' + PERIODIC_LENGTH] };
    }
    return decodePeriodic(bytes);
  }
  if (input.fPort === 3) {
    if (bytes.length < INFO_MIN_LENGTH) {
      return { errors: ['fPort 3 payload is ' + bytes.length + ' bytes, expected at least ' + INFO_MIN_LENGTH] };
    }
    return decodeInfo(bytes);
  }
  return { errors: ['unknown fPort ' + input.fPort] };
}

// Vendors export for their unit tests under Node; the decoder has no module, so this is skipped there.
if (typeof module !== 'undefined') {
  module.exports = { decodeUplink: decodeUplink };
}
