/*
 * Glimmer LUX light and irradiance sensor (an invented device; test resource of the codec corpus).
 *
 * fPort 10, 9 bytes: illuminance lux (float32 little-endian, as the sensor chip reports it), irradiance W/m2
 * (float32 big-endian, as the radio firmware writes it), gain byte (bits 0-3 gain exponent, bit 7 saturated).
 */
const MEASUREMENT_PORT = 10;
const FRAME_LENGTH = 9;

const round = (value, decimals = 2) => Math.round(value * 10 ** decimals) / 10 ** decimals;

function decodeUplink(input) {
  const { bytes, fPort } = input;
  if (fPort !== MEASUREMENT_PORT) {
    return { errors: [`unknown fPort ${fPort}`] };
  }
  if (bytes.length !== FRAME_LENGTH) {
    return { errors: [`payload is ${bytes.length} bytes, expected ${FRAME_LENGTH}`] };
  }
  const view = new DataView(new Uint8Array(bytes).buffer);
  const illuminance = view.getFloat32(0, true);
  const irradiance = view.getFloat32(4, false);
  // The chip reports NaN when its photodiode is open: no measurement, not a zero.
  if (Number.isNaN(illuminance)) {
    return { errors: ['illuminance sensor fault (NaN)'] };
  }
  const gainByte = bytes[8];
  const saturated = (gainByte & 0x80) !== 0;
  return {
    data: {
      illuminance: Number(illuminance.toFixed(1)),
      // Left as the float32 the device sent, widened to a double: the vendor does not round it.
      irradiance,
      irradianceRounded: round(irradiance),
      gain: 2 ** (gainByte & 0x0f),
      saturated,
    },
    warnings: saturated ? ['sensor saturated, illuminance is a lower bound'] : [],
    errors: [],
  };
}
