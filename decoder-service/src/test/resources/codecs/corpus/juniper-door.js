/*
 * Juniper DOOR contact sensor (an invented device; test resource of the codec corpus). TTN v2 Decoder.
 *
 * port 1, status, 6 bytes: flags (bit 0 open, bit 1 tamper, bit 7 battery low), open count (uint24 BE),
 *   minutes since the last opening (uint16 BE, 0xFFFF if never opened since the counter reset).
 * port 2, configuration acknowledgement: command, then its arguments.
 */
var NEVER = 0xffff;
var COMMANDS = { 1: 'set-interval', 2: 'set-led', 3: 'reset-counter' };

function u16(bytes, i) {
  return (bytes[i] << 8) | bytes[i + 1];
}

function u24(bytes, i) {
  return (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
}

function toHex(bytes) {
  var out = [];
  for (var i = 0; i < bytes.length; i++) {
    out.push((bytes[i] < 0x10 ? '0' : '') + bytes[i].toString(16));
  }
  return out.join('');
}

function Decoder(bytes, port) {
  if (port === 1) {
    var flags = bytes[0];
    var minutes = u16(bytes, 4);
    var open = (flags & 0x01) === 0x01;
    return {
      open: open,
      state: open ? 'open' : 'closed',
      tamper: (flags & 0x02) === 0x02,
      batteryLow: (flags & 0x80) === 0x80,
      openCount: u24(bytes, 1),
      minutesSinceOpen: minutes === NEVER ? null : minutes
    };
  }
  if (port === 2) {
    var ack = { ack: true, command: COMMANDS[bytes[0]] || 'unknown', raw: toHex(bytes) };
    if (bytes[0] === 1) {
      ack.intervalMinutes = u16(bytes, 1);
    } else if (bytes[0] === 2) {
      ack.ledEnabled = bytes[1] !== 0;
    }
    return ack;
  }
  return { raw: toHex(bytes) };
}
