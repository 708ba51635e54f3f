// An EM300-TH codec written in The Things Stack device-repository form: decodeUplink(input) over
// input.bytes, returning { data, warnings, errors }, ES5 only, helpers as top-level functions.
function decodeUplink(input) {
  var bytes = input.bytes;
  var data = {};
  var warnings = [];
  for (var i = 0; i < bytes.length; ) {
    var channel = bytes[i++];
    var type = bytes[i++];
    if (channel === 0x01 && type === 0x75) {
      data.battery = bytes[i];
      i += 1;
    } else if (channel === 0x03 && type === 0x67) {
      data.temperature = int16LE(bytes.slice(i, i + 2)) / 10;
      i += 2;
    } else if (channel === 0x04 && type === 0x68) {
      data.humidity = bytes[i] / 2;
      i += 1;
    } else {
      return { errors: ['unknown channel ' + channel + ' type ' + type + ' at byte ' + (i - 2)] };
    }
  }
  if (input.fPort !== 85) {
    warnings.push('unexpected fPort ' + input.fPort);
  }
  return { data: data, warnings: warnings, errors: [] };
}

function uint16LE(bytes) {
  return ((bytes[1] << 8) + bytes[0]) & 0xffff;
}

function int16LE(bytes) {
  var value = uint16LE(bytes);
  return value > 0x7fff ? value - 0x10000 : value;
}
