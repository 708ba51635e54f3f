package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.codec.CodecErrorsException;
import dev.iotpipeline.decoder.codec.CodecException;
import dev.iotpipeline.decoder.codec.CodecTimeoutException;
import dev.iotpipeline.decoder.codec.JavaScriptCodec;
import dev.iotpipeline.decoder.codec.UplinkCodec;
import dev.iotpipeline.events.CodecExample;
import dev.iotpipeline.events.EventJson;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs a device type's conformance examples through its codec and lists every difference from what they expect,
 * so a codec that does not do what its vendor documents is refused before any decoder runs it.
 */
final class CodecExamples {

    static final int MAX_EXAMPLES = 100;

    /** A LoRaWAN application payload is at most 242 bytes. */
    static final int MAX_BYTES = 242;

    static final int MAX_DESCRIPTION = 1000;

    static final int MAX_ERRORS = 100;

    /** Examples ride in the device-type event, which with a 256 KiB script must stay under Kafka's 1 MB default. */
    static final int MAX_JSON_BYTES = 256 << 10;

    /** Mismatches a refusal lists; the detail still counts every failed example. */
    static final int MAX_MISMATCHES = 200;

    private CodecExamples() {}

    /** One difference: which example, where in its expected output ({@code data.temperature}), and both values. */
    record Mismatch(int example, String description, String path, Object expected, Object actual) {}

    /**
     * The outcome of all examples: how many failed, their differences (at most {@link #MAX_MISMATCHES}, and
     * whether more were left out).
     */
    record Check(int failed, int total, List<Mismatch> mismatches, boolean truncated) {

        boolean passed() {
            return failed == 0;
        }
    }

    /** The first thing wrong with the examples of a request, as the field it is in and what is wrong with it. */
    record Invalid(String field, String problem) {}

    static Optional<Invalid> validate(List<CodecExample> examples) {
        if (examples == null) {
            return Optional.empty();
        }
        if (examples.size() > MAX_EXAMPLES) {
            return invalid("examples", "holds " + examples.size() + " examples; at most " + MAX_EXAMPLES);
        }
        for (int i = 0; i < examples.size(); i++) {
            var at = "examples[" + i + "]";
            var example = examples.get(i);
            if (example == null) {
                return invalid(at, "is null");
            }
            if (example.description() != null && example.description().length() > MAX_DESCRIPTION) {
                return invalid(at + ".description", "is longer than " + MAX_DESCRIPTION + " characters");
            }
            var problem = validateInput(at + ".input", example.input())
                    .or(() -> validateOutput(at + ".output", example.output(), true))
                    .or(() -> validateOutput(at + ".normalizedOutput", example.normalizedOutput(), false));
            if (problem.isPresent()) {
                return problem;
            }
        }
        int size = EventJson.write(examples).length;
        if (size > MAX_JSON_BYTES) {
            return invalid("examples", "take " + size + " bytes as JSON; at most " + MAX_JSON_BYTES);
        }
        return Optional.empty();
    }

    private static Optional<Invalid> validateInput(String at, CodecExample.Input input) {
        if (input == null) {
            return invalid(at, "is required: {\"fPort\": ..., \"bytes\": [...]}");
        }
        if (input.fPort() != null && (input.fPort() < 0 || input.fPort() > 255)) {
            return invalid(at + ".fPort", input.fPort() + " is not a port (0..255)");
        }
        var bytes = input.bytes();
        if (bytes.size() > MAX_BYTES) {
            return invalid(at + ".bytes", "holds " + bytes.size() + " bytes; at most " + MAX_BYTES);
        }
        for (int b = 0; b < bytes.size(); b++) {
            var value = bytes.get(b);
            if (value == null || value < 0 || value > 255) {
                return invalid(at + ".bytes", "item " + b + " (" + value + ") is not a byte value (0..255)");
            }
        }
        return Optional.empty();
    }

    private static Optional<Invalid> validateOutput(String at, CodecExample.Output output, boolean required) {
        if (output == null) {
            return required ? invalid(at, "is required: {\"data\": {...}} or {\"errors\": [...]}") : Optional.empty();
        }
        var data = output.data();
        boolean hasData = data != null && !data.isNull();
        if (hasData && !data.isObject() && !data.isArray()) {
            return invalid(at + ".data", "is not an object or an array");
        }
        if (!hasData && output.errors().isEmpty()) {
            return invalid(at + ".data", "is required unless the example expects errors");
        }
        if (output.errors().size() > MAX_ERRORS
                || output.warnings() != null && output.warnings().size() > MAX_ERRORS) {
            return invalid(at, "holds more than " + MAX_ERRORS + " errors or warnings");
        }
        if (output.errors().stream().anyMatch(Objects::isNull)
                || output.warnings() != null && output.warnings().stream().anyMatch(Objects::isNull)) {
            return invalid(at, "holds a null error or warning");
        }
        return Optional.empty();
    }

    private static Optional<Invalid> invalid(String field, String problem) {
        return Optional.of(new Invalid(field, problem));
    }

    /**
     * Decodes as the pipeline does, keeping a script's output beside its normalized one; throws what the codec
     * throws ({@link CodecErrorsException} for a script's own errors).
     */
    static JavaScriptCodec.Trial decode(UplinkCodec codec, byte[] payload, Integer fPort) {
        if (codec instanceof JavaScriptCodec script) {
            try {
                return script.trial(payload, fPort);
            } catch (CodecTimeoutException coldStart) {
                // A script's first calls in a cold JVM also pay for class loading and linking of its generated
                // code; a second timeout is the script's own.
                return script.trial(payload, fPort);
            }
        }
        return new JavaScriptCodec.Trial(codec.decode(payload, fPort), null);
    }

    /** Runs every example, in order, through {@code codec} as the pipeline would; never throws for what a codec does. */
    static Check run(UplinkCodec codec, List<CodecExample> examples) {
        var mismatches = new ArrayList<Mismatch>();
        int failed = 0;
        boolean truncated = false;
        for (int i = 0; i < examples.size(); i++) {
            var found = new ArrayList<Mismatch>();
            check(codec, i, examples.get(i), found);
            if (!found.isEmpty()) {
                failed++;
                int room = MAX_MISMATCHES - mismatches.size();
                truncated |= found.size() > room;
                mismatches.addAll(found.subList(0, Math.min(found.size(), room)));
            }
        }
        return new Check(failed, examples.size(), List.copyOf(mismatches), truncated);
    }

    /** Adds the example's differences to {@code found}. */
    private static void check(UplinkCodec codec, int index, CodecExample example, List<Mismatch> found) {
        var payload = bytes(example.input().bytes());
        var expectedErrors = example.output().errors();
        JavaScriptCodec.Trial outputs;
        try {
            outputs = decode(codec, payload, example.input().fPort());
        } catch (CodecErrorsException e) {
            if (!e.errors().equals(expectedErrors)) {
                found.add(new Mismatch(index, example.description(), "errors", expectedErrors, e.errors()));
            }
            return;
        } catch (CodecException e) {
            // A built-in codec refuses a payload with one message, which is its one error.
            if (!(codec instanceof JavaScriptCodec) && !expectedErrors.isEmpty()) {
                if (!List.of(String.valueOf(e.getMessage())).equals(expectedErrors)) {
                    found.add(new Mismatch(
                            index,
                            example.description(),
                            "errors",
                            expectedErrors,
                            List.of(String.valueOf(e.getMessage()))));
                }
                return;
            }
            found.add(new Mismatch(index, example.description(), "error", null, e.getMessage()));
            return;
        } catch (RuntimeException e) {
            // A built-in codec's bug; the pipeline dead-letters the uplink with it too.
            found.add(new Mismatch(
                    index, example.description(), "error", null, "codec " + codec.name() + " failed: " + e));
            return;
        }
        var output = outputs.output();
        var normalized = outputs.normalized();
        if (!expectedErrors.isEmpty()) {
            found.add(new Mismatch(index, example.description(), "errors", expectedErrors, List.of()));
            return;
        }
        compare(
                index,
                example.description(),
                "data.",
                FlatValues.of(example.output().data()),
                FlatValues.of(output),
                found);
        if (example.output().warnings() != null && !example.output().warnings().equals(FlatValues.warnings(output))) {
            found.add(new Mismatch(
                    index,
                    example.description(),
                    "warnings",
                    example.output().warnings(),
                    FlatValues.warnings(output)));
        }
        var expectedNormalized = example.normalizedOutput();
        if (expectedNormalized != null
                && expectedNormalized.data() != null
                && !expectedNormalized.data().isNull()) {
            var expected = FlatValues.of(expectedNormalized.data());
            if (normalized == null) {
                found.add(new Mismatch(index, example.description(), "normalizedOutput", expected, null));
            } else {
                compare(
                        index,
                        example.description(),
                        "normalizedOutput.data.",
                        expected,
                        FlatValues.of(normalized),
                        found);
                if (expectedNormalized.warnings() != null
                        && !expectedNormalized.warnings().equals(FlatValues.warnings(normalized))) {
                    found.add(new Mismatch(
                            index,
                            example.description(),
                            "normalizedOutput.warnings",
                            expectedNormalized.warnings(),
                            FlatValues.warnings(normalized)));
                }
            }
        }
    }

    private static void compare(
            int index,
            String description,
            String prefix,
            Map<String, Object> expected,
            Map<String, Object> actual,
            List<Mismatch> found) {
        var keys = new LinkedHashSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (var key : keys) {
            var want = expected.get(key);
            var got = actual.get(key);
            if (!FlatValues.same(want, got)) {
                found.add(new Mismatch(index, description, prefix + key, want, got));
            }
        }
    }

    private static byte[] bytes(List<Integer> values) {
        var bytes = new byte[values.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (int) values.get(i);
        }
        return bytes;
    }
}
