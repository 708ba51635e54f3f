/*
 * Nimbus CO2 meeting-room sensor (an invented device; test resource of the codec corpus). TTN v2 Decoder, from a
 * vendor that kept the old entry point but writes current JavaScript.
 *
 * port 1, measurement, 7 bytes: CO2 ppm (uint16 BE), temperature 0.1 degC (int16 BE), humidity %, pressure
 *   above 900 hPa in 0.1 hPa (uint16 BE).
 * port 2, calibration result, 3 bytes: outcome (0 failed, 1 done), correction ppm (int16 BE).
 * port 3, identity: firmware major, minor, then the room name the installer gave it (ASCII).
 */
const u16 = ([hi, lo]) => (hi << 8) | lo;
const s16 = (pair) => (u16(pair) << 16) >> 16;
const PRESSURE_BASE_HPA = 900;

const decoders = {
  1: (bytes) => {
    const [co2Hi, co2Lo, tempHi, tempLo, humidity, ...pressure] = bytes;
    return {
      co2: u16([co2Hi, co2Lo]),
      temperature: s16([tempHi, tempLo]) / 10,
      humidity,
      pressure: PRESSURE_BASE_HPA + u16(pressure) / 10,
    };
  },
  2: ([outcome, ...correction]) => ({ calibrated: outcome === 1, correctionPpm: s16(correction) }),
  3: ([major, minor, ...name]) => ({ firmware: `${major}.${minor}`, room: String.fromCharCode(...name).trim() }),
};

function Decoder(bytes, port) {
  const decode = decoders[port];
  return decode ? decode(bytes) : {};
}
