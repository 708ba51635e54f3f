/*
 * Pylon E3 three-phase energy meter interface (an invented device; test resource of the codec corpus).
 *
 * fPort 1, instantaneous, 32 bytes: for L1, L2, L3 voltage V and current A (float32 BE each), power factor
 *   0.001 (int16 BE, negative when exporting), total active energy Wh (uint32 BE), frequency 0.01 Hz (uint16 BE).
 * fPort 2, energy registers, 8 bytes: imported Wh, exported Wh (uint32 BE each).
 */
const PHASES = ['L1', 'L2', 'L3'];
const NOMINAL_VOLTAGE = 230;
const VOLTAGE_TOLERANCE = 0.1;
const INSTANT_LENGTH = 32;
const REGISTERS_LENGTH = 8;

const toFixedNumber = (value, digits) => parseFloat(value.toFixed(digits));
const viewOf = (bytes) => new DataView(Uint8Array.from(bytes).buffer);

function instantaneous(bytes) {
  const view = viewOf(bytes);
  const powerFactor = view.getInt16(24, false) / 1000;
  const warnings = [];
  const phases = PHASES.map((phase, i) => {
    const voltage = view.getFloat32(i * 8, false);
    const current = view.getFloat32(i * 8 + 4, false);
    if (voltage === 0) {
      warnings.push(`phase ${phase} lost`);
    } else if (Math.abs(voltage - NOMINAL_VOLTAGE) > NOMINAL_VOLTAGE * VOLTAGE_TOLERANCE) {
      warnings.push(`voltage out of range on ${phase}: ${toFixedNumber(voltage, 1)} V`);
    }
    return {
      phase,
      voltage: toFixedNumber(voltage, 1),
      current: toFixedNumber(current, 2),
      power: toFixedNumber(voltage * current * powerFactor, 1),
    };
  });
  return {
    data: {
      phases,
      totalPower: toFixedNumber(phases.reduce((sum, p) => sum + p.power, 0), 1),
      powerFactor,
      exporting: powerFactor < 0,
      energyTotal: view.getUint32(26, false) / 1000,
      frequency: view.getUint16(30, false) / 100,
    },
    warnings,
    errors: [],
  };
}

function decodeUplink(input) {
  const { bytes, fPort } = input;
  switch (fPort) {
    case 1: {
      const expected = INSTANT_LENGTH;
      if (bytes.length !== expected) {
        return { errors: [`fPort 1 payload is ${bytes.length} bytes, expected ${expected}`] };
      }
      return instantaneous(bytes);
    }
    case 2: {
      const expected = REGISTERS_LENGTH;
      if (bytes.length !== expected) {
        return { errors: [`fPort 2 payload is ${bytes.length} bytes, expected ${expected}`] };
      }
      const view = viewOf(bytes);
      const imported = view.getUint32(0, false);
      const exported = view.getUint32(4, false);
      return {
        data: { importEnergy: imported / 1000, exportEnergy: exported / 1000, netEnergy: (imported - exported) / 1000 },
        warnings: [],
        errors: [],
      };
    }
    default:
      return { errors: [`unknown fPort ${fPort}`] };
  }
}

// Vendors export for their unit tests under Node; the decoder has no module, so this is skipped there.
if (typeof module !== 'undefined') {
  module.exports = { decodeUplink };
}
