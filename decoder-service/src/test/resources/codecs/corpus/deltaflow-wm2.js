/*
 * Deltaflow WM2 water meter radio module (an invented device; test resource of the codec corpus).
 * TTN v2 Decoder(bytes, port), written the way meters of that era shipped it.
 *
 * port 1, index, 7 bytes: volume L (uint32 LE), alarm flags (bit 0 leak, 1 burst, 2 reverse flow, 3 tamper),
 *   battery mV (uint16 LE).
 * port 2, identity, 9 bytes: meter serial number (4 bytes BCD, least significant byte first, as printed on the
 *   dial), firmware (high nibble major, low nibble minor), radio module id (4 bytes).
 */
var ALARM_NAMES = ['leak', 'burst', 'reverse flow', 'tamper'];

function readUInt16LE(bytes, offset) {
  return bytes[offset] | (bytes[offset + 1] << 8);
}

function readUInt32LE(bytes, offset) {
  // The unsigned shift turns the int32 result of | back into 0 .. 2^32-1: indexes past 2^31 L are real.
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;
}

function bcdToString(bytes, offset, length) {
  var digits = '';
  for (var i = offset + length - 1; i >= offset; i--) {
    digits += (bytes[i] >> 4).toString() + (bytes[i] & 0x0f).toString();
  }
  return digits;
}

function hex(bytes, offset, length) {
  var out = '';
  for (var i = offset; i < offset + length; i++) {
    var h = bytes[i].toString(16).toUpperCase();
    out += h.length < 2 ? '0' + h : h;
  }
  return out;
}

function Decoder(bytes, port) {
  var decoded = {};
  if (port === 1) {
    var liters = readUInt32LE(bytes, 0);
    var flags = bytes[4];
    decoded.volume = liters / 1000;
    decoded.volumeLiters = liters;
    decoded.leak = (flags & 0x01) !== 0;
    decoded.burst = (flags & 0x02) !== 0;
    decoded.reverseFlow = (flags & 0x04) !== 0;
    decoded.tamper = (flags & 0x08) !== 0;
    decoded.alarms = [];
    for (var bit = 0; bit < ALARM_NAMES.length; bit++) {
      if (flags & (1 << bit)) {
        decoded.alarms.push(ALARM_NAMES[bit]);
      }
    }
    decoded.batteryVoltage = readUInt16LE(bytes, 5) / 1000;
  } else if (port === 2) {
    decoded.serialNumber = bcdToString(bytes, 0, 4);
    decoded.firmware = 'v' + (bytes[4] >> 4) + '.' + (bytes[4] & 0x0f);
    decoded.radioId = hex(bytes, 5, 4);
  }
  return decoded;
}
