/*
 * Meridian TANK ultrasonic level sensor for fuel and water tanks (an invented device; test resource of the codec
 * corpus).
 *
 * fPort 1, level, 5 bytes: tank profile id, distance from the sensor to the surface mm (uint16 BE), temperature
 *   degC (int8), alarm flags (bit 0 high level, 1 low level, 2 sensor obstructed, 3 temperature).
 * fPort 2, settings, 6 bytes: reporting interval minutes (uint16 BE), high and low thresholds %, tank profile id,
 *   flags (bit 0 alarms enabled).
 */
const PROFILES = new Map([
  [1, { name: 'IBC 1000 L', heightMm: 1000, capacityL: 1000 }],
  [2, { name: 'vertical 5000 L', heightMm: 2200, capacityL: 5000 }],
  [3, { name: 'diesel 1500 L', heightMm: 1250, capacityL: 1500 }],
]);
const ALARM_BITS = { 0: 'high level', 1: 'low level', 2: 'sensor obstructed', 3: 'temperature' };
// The sensor sits this far above the brim, so a full tank still reads a distance.
const SENSOR_CLEARANCE_MM = 50;
const LOW_FILL_PERCENT = 10;

function byteAt(bytes, i) {
  if (i >= bytes.length) {
    throw new RangeError(`no byte ${i}`);
  }
  return bytes[i];
}

function uint16(bytes, i) {
  let value = 0;
  for (let k = 0; k < 2; k++) {
    value = (value << 8) | byteAt(bytes, i + k);
  }
  return value;
}

function alarmNames(flags, fillPercent) {
  const alarms = new Set();
  for (const [bit, name] of Object.entries(ALARM_BITS)) {
    if (flags & (1 << Number(bit))) {
      alarms.add(name);
    }
  }
  // Older firmware does not raise the low-level flag itself; a Set keeps the name once when both say so.
  if (fillPercent !== null && fillPercent < LOW_FILL_PERCENT) {
    alarms.add('low level');
  }
  return [...alarms];
}

function decodeUplink(input) {
  const { bytes, fPort } = input;
  const warnings = [];
  let data;
  try {
    switch (fPort) {
      case 1: {
        const profileId = byteAt(bytes, 0);
        const distanceMm = uint16(bytes, 1);
        const temperature = (byteAt(bytes, 3) << 24) >> 24;
        const flags = byteAt(bytes, 4);
        const profile = PROFILES.get(profileId);
        if (!profile) {
          warnings.push(`unknown tank profile ${profileId}`);
        }
        // Foam or a splash can put the echo above the brim or below the bottom: the level stays in the tank.
        const levelMm = profile
          ? Math.min(profile.heightMm, Math.max(0, profile.heightMm - (distanceMm - SENSOR_CLEARANCE_MM)))
          : null;
        const fill = profile ? Number((levelMm / profile.heightMm * 100).toFixed(1)) : null;
        data = {
          tank: profile?.name ?? null,
          distanceMm,
          levelMm,
          fillPercent: fill,
          volumeLiters: profile ? Math.round(profile.capacityL * levelMm / profile.heightMm) : null,
          temperature,
          alarms: alarmNames(flags, fill),
        };
        break;
      }
      case 2: {
        const profileId = byteAt(bytes, 4);
        data = {
          reportingIntervalMinutes: uint16(bytes, 0),
          highThresholdPercent: byteAt(bytes, 2),
          lowThresholdPercent: byteAt(bytes, 3),
          tank: PROFILES.get(profileId)?.name ?? `profile ${profileId}`,
          alarmsEnabled: (byteAt(bytes, 5) & 0x01) !== 0,
        };
        break;
      }
      default:
        return { errors: [`unknown fPort ${fPort}`] };
    }
  } catch {
    return { errors: [`payload of ${bytes.length} bytes is too short for fPort ${fPort}`] };
  }
  return { data, warnings, errors: [] };
}

// Vendors export for their unit tests under Node; the decoder has no module, so this is skipped there.
if (typeof module !== 'undefined') {
  module.exports = { decodeUplink };
}
