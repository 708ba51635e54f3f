/*
 * Brightfield SOIL3 soil moisture, temperature and conductivity probe (an invented device; test resource of
 * the codec corpus). TTS decodeUplink with normalizeUplink.
 *
 * fPort 1, 7 bytes: volumetric water content 0.01 % (uint16 BE), soil temperature 0.01 degC (int16 BE),
 * electrical conductivity uS/cm (uint16 BE), battery %.
 */
const FRAME_PORT = 1;
const FRAME_LENGTH = 7;
const BATTERY_LOW_PERCENT = 10;
const US_PER_CM_IN_DS_PER_M = 1000;

// The probe resolves 0.1 % of water content at best, so the vendor shows one decimal, not the raw 0.01 steps.
const toPercent = (raw, decimals = 1) => Number((raw / 100).toFixed(decimals));
const signed16 = (value) => (value > 0x7fff ? value - 0x10000 : value);

function decodeUplink({ bytes, fPort }) {
  if (fPort !== FRAME_PORT) {
    return { errors: [`unknown fPort ${fPort}`] };
  }
  if (bytes.length !== FRAME_LENGTH) {
    return { errors: [`payload is ${bytes.length} bytes, expected ${FRAME_LENGTH}`] };
  }
  const [moistureHi, moistureLo, temperatureHi, temperatureLo, ecHi, ecLo, battery] = bytes;
  const temperature = signed16((temperatureHi << 8) | temperatureLo);
  const warnings = battery < BATTERY_LOW_PERCENT ? ['battery low'] : [];
  return {
    data: {
      moisture: toPercent((moistureHi << 8) | moistureLo),
      temperature: parseFloat((temperature / 100).toFixed(2)),
      conductivity: (ecHi << 8) | ecLo,
      battery,
    },
    warnings,
    errors: [],
  };
}

function normalizeUplink({ data }) {
  const { moisture, temperature, conductivity } = data;
  return {
    data: {
      soil: {
        moisture,
        temperature,
        // The normalized payload states conductivity in dS/m.
        ec: conductivity / US_PER_CM_IN_DS_PER_M,
      },
    },
    warnings: [],
    errors: [],
  };
}
