#!/usr/bin/env node
// Runs every codec of the corpus (decoder-service/src/test/resources/codecs/corpus) on its examples in Node and
// compares what it returns with the expected output, so that the expected values are Node's, not a guess.
//
//   node decoder-service/src/test/tools/corpus-node-check.mjs
//       check every codec; exit 1 on any mismatch
//   node decoder-service/src/test/tools/corpus-node-check.mjs --actual X
//       print codec X's examples with the outputs Node produces now, to review by hand before writing them into
//       X.examples.json
//
// Each codec gets a fresh vm context with nothing but the language built-ins: no require, module, console or
// timers, as in the decoder's sandbox. All examples of one codec run in the same context, because the decoder
// also keeps a codec's scope between calls. Dates compare as their ISO-8601 strings (the form JSON and the
// decoder give them); NaN, infinities, undefined and functions in an output count as mismatches, since an
// examples file cannot state them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const CORPUS = fileURLToPath(new URL('../resources/codecs/corpus/', import.meta.url));
// Same order as the decoder's form detection.
const FORMS = ['decodeUplink', 'Decode', 'Decoder'];
const MAX_PAYLOAD = 51;
const CALL_TIMEOUT_MS = 2000;

class Mismatch extends Error {}

function canonical(value, path) {
  if (value === null) {
    return null;
  }
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) {
        throw new Mismatch(`${path} is ${value}, which JSON cannot hold`);
      }
      return value;
    case 'string':
    case 'boolean':
      return value;
    case 'object': {
      const tag = Object.prototype.toString.call(value);
      if (tag === '[object Date]') {
        return value.toISOString();
      }
      if (Array.isArray(value)) {
        return value.map((item, i) => canonical(item, `${path}[${i}]`));
      }
      if (tag !== '[object Object]') {
        throw new Mismatch(`${path} is a ${tag}, not a plain object`);
      }
      const out = {};
      for (const key of Object.keys(value)) {
        out[key] = canonical(value[key], `${path}.${key}`);
      }
      return out;
    }
    default:
      throw new Mismatch(`${path} is ${typeof value}, which JSON cannot hold`);
  }
}

/** The path of the first difference between two JSON values, or null when they are equal. */
function difference(expected, actual, path) {
  if (expected === actual) {
    return null;
  }
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(expected) !== kind(actual) || typeof expected !== 'object') {
    return `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (expected.length !== actual.length) {
      return `${path}: expected ${expected.length} items, got ${actual.length}: ${JSON.stringify(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const found = difference(expected[i], actual[i], `${path}[${i}]`);
      if (found) {
        return found;
      }
    }
    return null;
  }
  for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (!(key in actual)) {
      return `${path}.${key}: expected ${JSON.stringify(expected[key])}, missing`;
    }
    if (!(key in expected)) {
      return `${path}.${key}: not expected, got ${JSON.stringify(actual[key])}`;
    }
    const found = difference(expected[key], actual[key], `${path}.${key}`);
    if (found) {
      return found;
    }
  }
  return null;
}

/** A TTS result in the shape the examples state it: data only when there are no errors, lists always. */
function ttsShape(result, path) {
  if (result === null || typeof result !== 'object') {
    throw new Mismatch(`${path} returned ${result === null ? 'null' : typeof result}, not an object`);
  }
  const out = canonical(result, path);
  const errors = out.errors ?? [];
  const warnings = out.warnings ?? [];
  if (errors.length > 0) {
    if (out.data !== undefined) {
      throw new Mismatch(`${path} returned both errors and data`);
    }
    return warnings.length > 0 ? { errors, warnings } : { errors };
  }
  if (out.data === undefined) {
    throw new Mismatch(`${path} returned neither data nor errors`);
  }
  return { data: out.data, warnings, errors };
}

function expectedShape(expected, legacy) {
  if (expected === undefined) {
    return undefined;
  }
  const errors = expected.errors ?? [];
  const warnings = expected.warnings ?? [];
  if (legacy || errors.length === 0) {
    return { data: expected.data, warnings, errors };
  }
  return warnings.length > 0 ? { errors, warnings } : { errors };
}

function load(name) {
  const file = `${CORPUS}${name}.js`;
  const source = readFileSync(file, 'utf8');
  const context = vm.createContext({});
  vm.runInContext(source, context, { filename: file, timeout: CALL_TIMEOUT_MS });
  // Looked up as properties of the global object, as the decoder does: a codec whose entry point is a top-level
  // const or class is not found by it, and must not pass here either.
  const form = FORMS.find((f) => typeof context[f] === 'function');
  const normalize = form === 'decodeUplink' && typeof context.normalizeUplink === 'function';
  return { source, context, form, normalize, bytes: Buffer.byteLength(source, 'utf8') };
}

/** Runs one example; returns the outputs in the examples' shape. */
function run(codec, example) {
  const { context, form } = codec;
  const { bytes, fPort } = example.input;
  // Built inside the context so that the codec sees its own realm's Array and Date, as with a real engine.
  const make = (expression) => vm.runInContext(expression, context);
  const list = JSON.stringify(bytes);
  const port = JSON.stringify(fPort ?? null);
  let output;
  let normalizedOutput;
  if (form === 'decodeUplink') {
    const input = make(`({bytes: ${list}, fPort: ${port}, recvTime: new Date()})`);
    const result = context.decodeUplink(input);
    output = ttsShape(result, 'decodeUplink');
    if (codec.normalize && output.data !== undefined) {
      // The decoder hands normalizeUplink the very object decodeUplink returned, not a copy.
      const argument = make('({})');
      argument.data = result.data;
      normalizedOutput = ttsShape(context.normalizeUplink(argument), 'normalizeUplink');
    }
  } else if (form === 'Decode') {
    output = { data: canonical(context.Decode(JSON.parse(port), make(list), make('({})')), 'Decode'),
      warnings: [], errors: [] };
  } else {
    output = { data: canonical(context.Decoder(make(list), JSON.parse(port)), 'Decoder'), warnings: [],
      errors: [] };
  }
  if (output.data !== undefined && (output.data === null || typeof output.data !== 'object')) {
    throw new Mismatch(`${form} returned data that is not an object: ${JSON.stringify(output.data)}`);
  }
  return { output, normalizedOutput };
}

function check(name) {
  const problems = [];
  let codec;
  let examples;
  try {
    codec = load(name);
    examples = JSON.parse(readFileSync(`${CORPUS}${name}.examples.json`, 'utf8'));
  } catch (e) {
    return { problems: [`does not load: ${e.message}`] };
  }
  if (!codec.form) {
    return { problems: ['defines no global decodeUplink, Decode or Decoder function'] };
  }
  if (!Array.isArray(examples) || examples.length < 3) {
    problems.push('needs at least 3 examples');
  }
  let rejected = 0;
  (Array.isArray(examples) ? examples : []).forEach((example, i) => {
    const label = `example ${i + 1} (${example.description ?? 'no description'})`;
    const bytes = example.input?.bytes;
    if (!Array.isArray(bytes) || bytes.length > MAX_PAYLOAD
        || !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
      problems.push(`${label}: input.bytes must be at most ${MAX_PAYLOAD} integers 0-255`);
      return;
    }
    const legacy = codec.form !== 'decodeUplink';
    const expected = expectedShape(example.output, legacy);
    if (expected === undefined) {
      problems.push(`${label}: no output`);
      return;
    }
    if (legacy && (expected.warnings.length > 0 || expected.errors.length > 0)) {
      problems.push(`${label}: a ${codec.form} codec returns no warnings or errors`);
    }
    if (expected.errors?.length > 0 && expected.data === undefined) {
      rejected++;
    }
    let actual;
    try {
      actual = run(codec, example);
    } catch (e) {
      problems.push(`${label}: ${e instanceof Mismatch ? e.message : `threw ${e?.stack ?? e}`}`);
      return;
    }
    const found = difference(expected, actual.output, 'output');
    if (found) {
      problems.push(`${label}: ${found}`);
    }
    const expectedNormalized = expectedShape(example.normalizedOutput, false);
    if (actual.normalizedOutput === undefined) {
      if (expectedNormalized !== undefined) {
        problems.push(`${label}: normalizedOutput given, but the codec ${codec.normalize
          ? 'rejects the payload' : 'has no normalizeUplink'}`);
      }
    } else if (expectedNormalized === undefined) {
      problems.push(`${label}: no normalizedOutput, though the codec defines normalizeUplink`);
    } else {
      const normalizedFound = difference(expectedNormalized, actual.normalizedOutput, 'normalizedOutput');
      if (normalizedFound) {
        problems.push(`${label}: ${normalizedFound}`);
      }
    }
  });
  return { codec, examples, rejected, problems };
}

function printActual(name) {
  const codec = load(name);
  const examples = JSON.parse(readFileSync(`${CORPUS}${name}.examples.json`, 'utf8'));
  const out = examples.map((example) => {
    const { output, normalizedOutput } = run(codec, example);
    // The legacy forms return the data alone.
    const entry = { description: example.description, input: example.input,
      output: codec.form === 'decodeUplink' ? output : { data: output.data } };
    if (normalizedOutput !== undefined) {
      entry.normalizedOutput = normalizedOutput;
    }
    return entry;
  });
  process.stdout.write(`${format(out, '')}\n`);
}

/** JSON with two-space indents, each value on one line when it fits, so that byte lists stay readable. */
function format(value, indent) {
  const flat = JSON.stringify(value);
  const primitives = Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object');
  if (value === null || typeof value !== 'object' || primitives || indent.length + flat.length <= 110) {
    return flat;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => inner + format(item, inner)).join(',\n')}\n${indent}]`;
  }
  const fields = Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${format(item, inner)}`);
  return `{\n${fields.join(',\n')}\n${indent}}`;
}

const args = process.argv.slice(2);
if (args[0] === '--actual') {
  printActual(args[1]);
} else {
  const names = readdirSync(CORPUS).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3)).sort();
  let failed = 0;
  for (const name of names) {
    const { codec, examples, rejected, problems } = check(name);
    if (problems.length === 0) {
      const form = codec.form + (codec.normalize ? '+normalizeUplink' : '');
      const size = (statSync(`${CORPUS}${name}.js`).size / 1000).toFixed(1);
      console.log(`ok    ${name.padEnd(20)} ${form.padEnd(28)} ${String(examples.length).padStart(2)} examples`
        + ` (${rejected} rejected)  ${size.padStart(6)} kB`);
    } else {
      failed++;
      console.log(`FAIL  ${name}`);
      for (const problem of problems) {
        console.log(`      ${problem}`);
      }
    }
  }
  console.log(`${names.length - failed}/${names.length} codecs match their examples in Node ${process.version}`);
  process.exit(failed === 0 && names.length > 0 ? 0 : 1);
}
