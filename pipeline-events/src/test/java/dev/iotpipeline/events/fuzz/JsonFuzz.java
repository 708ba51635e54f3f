package dev.iotpipeline.events.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generators of hostile JSON, as text: arbitrary trees (random nesting, every type, huge and malformed numbers,
 * unicode and lone surrogates, NaN-like strings and tokens, duplicate keys), objects shaped like a given request
 * with each field present, absent, wrong-typed or extra, and bytes that corrupt any of these.
 */
public final class JsonFuzz {

    private JsonFuzz() {}

    /** Strings a client might send: unicode, control characters, lone surrogates, NaN-like, times, long. */
    public static Arbitrary<String> strings() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.strings().all().ofMaxLength(16)),
                Tuple.of(3, Arbitraries.strings().ascii().ofMaxLength(16)),
                Tuple.of(
                        3,
                        Arbitraries.of(
                                "",
                                " ",
                                "\t",
                                "NaN",
                                "-NaN",
                                "Infinity",
                                "-Infinity",
                                "1e999",
                                "-0",
                                "null",
                                "true",
                                "0x1F",
                                "\u0000",
                                "\ud800",
                                "\udfff\ud800",
                                "\uD83D\uDCA9",
                                "\uFB00",
                                "\u0130",
                                "a\u0301",
                                "\u202E",
                                "\uFEFF",
                                "1970-01-01T00:00:00Z",
                                "+999999999-12-31T23:59:59.999999999Z",
                                "-1000000000-01-01T00:00:00Z",
                                "2024-02-30T00:00:00Z",
                                "2024-01-01T00:00:00+18:00",
                                "2024-01-01T00:00:00+19:00",
                                "P1D",
                                "AQID",
                                "AQ",
                                "====",
                                "01",
                                "0g",
                                " 01 ",
                                "__proto__",
                                "constructor",
                                "../../etc/passwd",
                                "%00",
                                "${jndi:x}",
                                "6f1c2a3e-9a0e-4a8e-b1b4-1f3e5c7d9a21")),
                Tuple.of(1, Arbitraries.strings().all().ofMinLength(500).ofMaxLength(3000)));
    }

    /**
     * Number tokens: every Java range, hundreds of digits, huge exponents, and now and then a token that is
     * not JSON at all (NaN, leading zeros, hex).
     */
    public static Arbitrary<String> numbers() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(-300, 300).map(String::valueOf)),
                Tuple.of(2, Arbitraries.integers().map(String::valueOf)),
                Tuple.of(2, Arbitraries.longs().map(String::valueOf)),
                Tuple.of(2, Arbitraries.doubles().filter(Double::isFinite).map(String::valueOf)),
                Tuple.of(
                        2,
                        Combinators.combine(
                                        Arbitraries.of("", "-"),
                                        Arbitraries.integers().between(1, 9),
                                        Arbitraries.strings().numeric().ofMaxLength(150),
                                        Arbitraries.of(
                                                "",
                                                "",
                                                ".5",
                                                ".0000001",
                                                "e999999999",
                                                "E-2147483649",
                                                "e+17",
                                                "e2147483648"))
                                .as((sign, first, digits, tail) -> sign + first + digits + tail)),
                Tuple.of(
                        2,
                        Arbitraries.of(
                                "0",
                                "-0",
                                "-0.0",
                                "1e999",
                                "-1e999",
                                "1e-999",
                                "4.9e-324",
                                "1.7976931348623157e308",
                                "9223372036854775807",
                                "9223372036854775808",
                                "-9223372036854775809",
                                "2147483647",
                                "2147483648",
                                "255",
                                "256",
                                "-1",
                                "0.5",
                                "1E+2",
                                "1e2147483648",
                                "1e-2147483649",
                                "85.0",
                                "85.5",
                                "2.55e2")));
    }

    /** Number-like tokens that JSON does not allow. */
    public static Arbitrary<String> notNumbers() {
        return Arbitraries.of(
                "NaN", "Infinity", "-Infinity", "+1", "01", ".5", "1.", "0x10", "1_000", "--1", "1e", "-");
    }

    /** A JSON string literal; lone surrogates and some other characters as \\u escapes, the rest raw. */
    public static String quote(String text) {
        var out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) || (c > 0x7E && (c & 1) == 0)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** Property names: mostly short, now and then any string (lone surrogates, thousands of characters). */
    public static Arbitrary<String> names() {
        return Arbitraries.frequencyOf(
                Tuple.of(
                        200,
                        Arbitraries.strings().all().excludeChars(surrogates()).ofMaxLength(12)),
                Tuple.of(5, Arbitraries.strings().all().ofMaxLength(12)),
                Tuple.of(1, strings()));
    }

    private static char[] surrogates() {
        var chars = new char[Character.MAX_SURROGATE - Character.MIN_SURROGATE + 1];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) (Character.MIN_SURROGATE + i);
        }
        return chars;
    }

    public static Arbitrary<String> scalars() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, strings().map(JsonFuzz::quote)),
                Tuple.of(4, numbers()),
                Tuple.of(2, Arbitraries.of("true", "false", "null")),
                Tuple.of(1, Arbitraries.frequencyOf(Tuple.of(1, notNumbers()), Tuple.of(100, Arbitraries.of("0")))));
    }

    /** Any JSON value up to {@code depth} levels deep, object keys drawn partly from {@code keys}. */
    public static Arbitrary<String> values(int depth, List<String> keys) {
        if (depth <= 0) {
            return scalars();
        }
        return Arbitraries.frequencyOf(
                Tuple.of(5, scalars()),
                Tuple.of(
                        1,
                        Arbitraries.lazy(() -> values(depth - 1, keys))
                                .list()
                                .ofMaxSize(5)
                                .map(items -> "[" + String.join(",", items) + "]")),
                Tuple.of(
                        2,
                        Arbitraries.lazy(() -> members(keys, values(depth - 1, keys)))
                                .list()
                                .ofMaxSize(5)
                                .map(members -> "{" + String.join(",", members) + "}")));
    }

    /** A JSON object of any values up to {@code depth} levels deep. */
    public static Arbitrary<String> objects(int depth) {
        return members(List.of(), values(depth - 1))
                .list()
                .ofMaxSize(5)
                .map(members -> "{" + String.join(",", members) + "}");
    }

    public static Arbitrary<String> values(int depth) {
        return values(depth, List.of());
    }

    private static Arbitrary<String> members(List<String> keys, Arbitrary<String> values) {
        Arbitrary<String> key = keys.isEmpty()
                ? names()
                : Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(keys)), Tuple.of(1, names()));
        return Combinators.combine(key, values).as((k, v) -> quote(k) + ":" + v);
    }

    /**
     * An object with each given field present (its own generator) or absent, and sometimes extra fields, a
     * duplicate of a field, or the fields in another order.
     */
    public static Arbitrary<String> shaped(Map<String, Arbitrary<String>> fields) {
        var present = new ArrayList<Arbitrary<String>>();
        fields.forEach((name, value) -> present.add(Arbitraries.frequencyOf(
                Tuple.of(8, value.map(v -> quote(name) + ":" + v)), Tuple.of(1, Arbitraries.just("")))));
        var extras = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(List.<String>of())),
                Tuple.of(
                        1,
                        members(List.copyOf(fields.keySet()), values(2))
                                .list()
                                .ofMinSize(1)
                                .ofMaxSize(2)));
        return Combinators.combine(Combinators.combine(present).as(List::copyOf), extras, Arbitraries.randoms())
                .as((given, extra, random) -> {
                    var members = new ArrayList<String>();
                    given.stream().filter(m -> !m.isEmpty()).forEach(members::add);
                    members.addAll(extra);
                    if (random.nextInt(8) == 0) {
                        Collections.shuffle(members, random);
                    }
                    return "{" + String.join(",", members) + "}";
                });
    }

    /** A field value: a valid one of the field, or any JSON value of any type. */
    public static Arbitrary<String> field(Arbitrary<String> valid) {
        return Arbitraries.frequencyOf(Tuple.of(12, valid), Tuple.of(1, values(2)));
    }

    public static Map<String, Arbitrary<String>> fields() {
        return new LinkedHashMap<>();
    }

    /** A request body; shown as text (bytes that are not UTF-8 as U+FFFD) so a shrunk sample can be read. */
    public record Body(byte[] bytes) {
        @Override
        public String toString() {
            var text = new String(bytes, StandardCharsets.UTF_8);
            var out = new StringBuilder(bytes.length + " bytes: ");
            text.codePoints().limit(4000).forEach(c -> {
                if (c < 0x20 || c == 0x7F) {
                    out.append(String.format("\\u%04x", c));
                } else {
                    out.appendCodePoint(c);
                }
            });
            return out.toString();
        }
    }

    /** A body: {@code json} as UTF-8, or an array of it, or either corrupted, or random bytes, or deep nesting. */
    public static Arbitrary<Body> bodies(Arbitrary<String> json) {
        var asBytes = json.map(JsonFuzz::utf8);
        var batch = Arbitraries.frequencyOf(
                        Tuple.of(4, json.list().ofMaxSize(3)),
                        Tuple.of(1, json.list().ofMaxSize(25)))
                .map(items -> utf8("[" + String.join(",", items) + "]"));
        return Arbitraries.frequencyOf(
                        Tuple.of(8, asBytes),
                        Tuple.of(3, batch),
                        Tuple.of(
                                3,
                                Combinators.combine(Arbitraries.oneOf(asBytes, batch), Arbitraries.randoms())
                                        .as(JsonFuzz::corrupt)),
                        Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(64)),
                        Tuple.of(1, deepNesting()))
                .map(Body::new);
    }

    /** A document that is one value, never a batch: {@code json} as UTF-8, corrupted, random bytes, deep nesting. */
    public static Arbitrary<Body> documents(Arbitrary<String> json) {
        var asBytes = json.map(JsonFuzz::utf8);
        return Arbitraries.frequencyOf(
                        Tuple.of(12, asBytes),
                        Tuple.of(
                                3,
                                Combinators.combine(asBytes, Arbitraries.randoms())
                                        .as(JsonFuzz::corrupt)),
                        Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(64)),
                        Tuple.of(1, deepNesting()))
                .map(Body::new);
    }

    /** Arrays or objects nested far beyond any real request, closed or not. */
    public static Arbitrary<byte[]> deepNesting() {
        var depths = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.integers().between(1, 100)),
                Tuple.of(1, Arbitraries.integers().between(100, 20_000)));
        return Combinators.combine(depths, Arbitraries.of("[", "{\"a\":", "[{\"b\":"), Arbitraries.of(true, false))
                .as((depth, open, closed) -> {
                    var text = new StringBuilder(open.repeat(depth)).append('1');
                    if (closed) {
                        var close = open.equals("[") ? "]" : open.equals("{\"a\":") ? "}" : "}]";
                        text.append(close.repeat(depth));
                    }
                    return utf8(text.toString());
                });
    }

    /** One to three byte-level edits: truncate, delete, insert or replace a byte, duplicate a slice. */
    public static byte[] corrupt(byte[] body, Random random) {
        var bytes = new ArrayList<Byte>(body.length + 8);
        for (byte b : body) {
            bytes.add(b);
        }
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = bytes.isEmpty() ? 0 : random.nextInt(bytes.size());
            switch (random.nextInt(5)) {
                case 0 -> bytes.subList(at, bytes.size()).clear();
                case 1 -> {
                    if (!bytes.isEmpty()) {
                        bytes.remove(at);
                    }
                }
                case 2 -> bytes.add(at, (byte) random.nextInt(256));
                case 3 -> {
                    if (!bytes.isEmpty()) {
                        bytes.set(at, (byte) random.nextInt(256));
                    }
                }
                default -> {
                    int end = Math.min(bytes.size(), at + 1 + random.nextInt(16));
                    bytes.addAll(at, List.copyOf(bytes.subList(at, end)));
                }
            }
        }
        var out = new byte[bytes.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = bytes.get(i);
        }
        return out;
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
