package dev.iotpipeline.decoder.codec;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;

/** Turns what a codec script returned into a {@link Decoded}, bounded in size and depth. */
final class ScriptResults {

    /** Values one decoded message may hold in all; a LoRaWAN payload is at most 242 bytes. */
    static final int MAX_RESULT_VALUES = 10_000;

    /** Levels of nested objects in {@code data}. */
    static final int MAX_DATA_DEPTH = 32;

    /** Errors quoted in the dead-letter reason when a script reports more. */
    static final int MAX_ERRORS_SHOWN = 10;

    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final String name;

    ScriptResults(String name) {
        this.name = name;
    }

    /** A {@code {data, warnings, errors}} result whose {@code errors} is empty; errors dead-letter the message. */
    Scriptable checked(Object returned) {
        var prefix = "javascript codec " + name + " ";
        if (!(returned instanceof Scriptable result)) {
            throw new CodecException(prefix + "returned no object");
        }
        var errors = ScriptableObject.getProperty(result, "errors");
        if (errors instanceof NativeArray list && list.getLength() > 0) {
            long count = list.getLength();
            new Values(prefix).add(count);
            var all = list.stream().map(String::valueOf).toList();
            throw new CodecErrorsException(
                    prefix + "reported errors: "
                            + String.join("; ", all.subList(0, (int) Math.min(count, MAX_ERRORS_SHOWN)))
                            + (count > MAX_ERRORS_SHOWN ? "; … (" + count + " in all)" : ""),
                    all);
        }
        return result;
    }

    List<String> warnings(Scriptable result) {
        var warnings = ScriptableObject.getProperty(result, "warnings");
        if (!(warnings instanceof NativeArray list) || list.getLength() == 0) {
            return List.of();
        }
        new Values("javascript codec " + name + " ").add(list.getLength());
        return list.stream().map(String::valueOf).toList();
    }

    /** The decoded object (or, from {@code normalizeUplink}, an array of them) flattened into a {@link Decoded}. */
    Decoded fields(Object data, List<String> warnings) {
        var prefix = "javascript codec " + name + " ";
        var values = new Values(prefix);
        var measurements = new LinkedHashMap<String, Double>();
        var attributes = new LinkedHashMap<String, Object>();
        if (data instanceof NativeArray array) {
            values.add(array.getLength());
            for (int i = 0; i < (int) array.getLength(); i++) {
                leaf(Integer.toString(i), array.get(i), 0, values, measurements, attributes);
            }
        } else if (data instanceof Map<?, ?> fields && !(data instanceof NativeArray)) {
            flatten("", fields, 0, values, measurements, attributes);
        } else {
            throw new CodecException(prefix + "returned no data object");
        }
        if (!warnings.isEmpty()) {
            values.add(warnings.size());
            attributes.put(Decoded.WARNINGS, warnings);
        }
        return new Decoded(measurements, attributes);
    }

    /**
     * Counts what a result holds, because reading it is host work no instruction count sees: an array of length
     * 2^32-1 is one assignment for the script and four billion steps for the host.
     */
    private static final class Values {
        private final String prefix;
        private long count;

        Values(String prefix) {
            this.prefix = prefix;
        }

        void add(long values) {
            count += values;
            if (count > MAX_RESULT_VALUES) {
                throw new CodecException(prefix + "returned more than " + MAX_RESULT_VALUES
                        + " values (measurements, attributes, list items and warnings)");
            }
        }
    }

    /**
     * Every numeric leaf is a measurement and every other leaf an attribute, named by its path: nested objects
     * as {@code parent.child}, array items by index ({@code readings.0.value}), so arrays of objects keep every
     * value. Booleans stay booleans, dates become ISO-8601 strings, null and undefined are left out.
     */
    private static void flatten(
            String prefix,
            Map<?, ?> fields,
            int depth,
            Values values,
            Map<String, Double> measurements,
            Map<String, Object> attributes) {
        if (depth > MAX_DATA_DEPTH) {
            throw new CodecException(values.prefix + "returned data nested more than " + MAX_DATA_DEPTH + " levels");
        }
        fields.forEach((key, value) -> leaf(prefix + key, value, depth, values, measurements, attributes));
    }

    private static void leaf(
            String name,
            Object value,
            int depth,
            Values values,
            Map<String, Double> measurements,
            Map<String, Object> attributes) {
        values.add(1);
        if (value instanceof Number number) {
            // NaN and the infinities are no reading; a measurement column never holds them.
            if (Double.isFinite(number.doubleValue())) {
                measurements.put(name, number.doubleValue());
            }
        } else if (value instanceof NativeArray array) {
            if (depth + 1 > MAX_DATA_DEPTH) {
                throw new CodecException(
                        values.prefix + "returned data nested more than " + MAX_DATA_DEPTH + " levels");
            }
            values.add(array.getLength());
            for (int i = 0; i < (int) array.getLength(); i++) {
                leaf(name + "." + i, array.get(i), depth + 1, values, measurements, attributes);
            }
        } else if (value instanceof Scriptable date && "Date".equals(date.getClassName())) {
            double millis = Context.toNumber(date);
            if (Double.isFinite(millis)) {
                // As JavaScript's toISOString and JSON.stringify write it, so output matches the codec's in Node.
                attributes.put(name, ISO_MILLIS.format(Instant.ofEpochMilli((long) millis)));
            }
        } else if (value instanceof Map<?, ?> nested) {
            flatten(name + ".", nested, depth + 1, values, measurements, attributes);
        } else if (value != null && !(value instanceof Undefined)) {
            attributes.put(name, value instanceof Boolean ? value : Context.toString(value));
        }
    }
}
