// Suite sizes: every suite has a full size (the seed's, or the target) and a smoke size (seconds, for CI).
// SMOKE=1 (k6/run --smoke) picks the smoke size; any single value can still be set with -e NAME=value.
export const SMOKE = ['1', 'true', 'yes'].includes(String(__ENV.SMOKE || '').toLowerCase());

// param('DEVICES', 500, 20): the environment's DEVICES if set, else the smoke or the full default.
export function param(name, full, smoke) {
  const value = __ENV[name];
  if (value !== undefined && value !== '') {
    const n = Number(value);
    if (Number.isNaN(n)) throw new Error(`${name}=${value} is not a number`);
    return n;
  }
  return SMOKE ? smoke : full;
}

// k6 duration string from seconds (fractions allowed).
export function seconds(s) {
  return `${Math.round(s * 1000)}ms`;
}

// Channel names are [a-z0-9][a-z0-9-]{0,63}; one fresh channel per run keeps runs apart on a shared stack.
// CHANNEL names one instead, e.g. for a second subscriber started beside the run (bench/wsload -rate 0).
export function runChannel(suite) {
  if (__ENV.CHANNEL) return __ENV.CHANNEL;
  return `${suite}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`.slice(0, 64);
}
