/*
 * Fjord MULTI environment sensor (an invented device; test resource of the codec corpus).
 * ChirpStack v3 Decode(fPort, bytes, variables).
 *
 * Any fPort: a list of values, each a type byte and its value:
 *   0x00 padding (no value)              0x04 illuminance lux (uint16 BE)
 *   0x01 temperature 0.1 degC (int16 BE) 0x05 motion count (uint16 BE)
 *   0x02 humidity 0.5 %RH (uint8)        0x06 battery % (uint8)
 *   0x03 pressure 0.1 hPa (uint16 BE)    0x07 door (uint8, 0 closed)
 * The device variable temperatureOffset (a string, as ChirpStack stores variables) corrects the temperature.
 */
var VALUE_SIZES = { 1: 2, 2: 1, 3: 2, 4: 2, 5: 2, 6: 1, 7: 1 };

function uint16(bytes, i) {
  return (bytes[i] << 8) | bytes[i + 1];
}

function int16(bytes, i) {
  var value = uint16(bytes, i);
  return value & 0x8000 ? value - 0x10000 : value;
}

function hexByte(value) {
  return '0x' + (value < 16 ? '0' : '') + value.toString(16);
}

function Decode(fPort, bytes, variables) {
  var out = {};
  var offset = variables && variables.temperatureOffset !== undefined ? parseFloat(variables.temperatureOffset) : 0;
  var i = 0;
  values:
  while (i < bytes.length) {
    var type = bytes[i++];
    if (type === 0x00) {
      continue values;
    }
    var size = VALUE_SIZES[type];
    // Without its size an unknown type cannot be skipped: whatever follows it is unreadable.
    if (size === undefined) {
      out.unknownType = hexByte(type);
      break values;
    }
    if (i + size > bytes.length) {
      out.truncated = true;
      break values;
    }
    switch (type) {
      case 0x01:
        out.temperature = int16(bytes, i) / 10 + offset;
        break;
      case 0x02:
        out.humidity = bytes[i] / 2;
        break;
      case 0x03:
        out.pressure = uint16(bytes, i) / 10;
        break;
      case 0x04:
        out.illuminance = uint16(bytes, i);
        break;
      case 0x05:
        out.motionCount = uint16(bytes, i);
        break;
      case 0x06:
        out.battery = bytes[i];
        break;
      case 0x07:
        out.doorOpen = bytes[i] !== 0;
        break;
    }
    i += size;
  }
  return out;
}
