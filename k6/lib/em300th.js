// Encodes Milesight EM300-TH uplinks (channel/type/value items, little-endian) as the device does.
function hex(value, bytes) {
  let out = '';
  for (let i = 0; i < bytes; i++) {
    out += ((value >> (8 * i)) & 0xff).toString(16).padStart(2, '0');
  }
  return out;
}

export function em300thHex(battery, temperature, humidity) {
  const t = Math.round(temperature * 10) & 0xffff;
  return '0175' + hex(battery, 1) + '0367' + hex(t, 2) + '0468' + hex(Math.round(humidity * 2), 1);
}
