package dev.iotpipeline.decoder.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.codec.UplinkCodec;
import dev.iotpipeline.decoder.registry.CodecExamples.Mismatch;
import dev.iotpipeline.events.CodecExample;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EventJson;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Conformance examples run through real codecs: what passes, and every kind of difference that is listed. */
class CodecExamplesTest {

    /** Channel 1, type 0x67 (temperature, 0.1 °C, big-endian); anything else is refused with an error. */
    private static final String SCRIPT = """
            function decodeUplink(input) {
              var b = input.bytes;
              if (b.length < 4) { return { errors: ['payload too short', 'expected 4 bytes'] }; }
              if (b[0] === 9) { throw new Error('channel 9 crashes'); }
              var warnings = input.fPort === 2 ? [] : ['unexpected fPort ' + input.fPort];
              return { data: { temperature: ((b[2] << 8) | b[3]) / 10, ok: true }, warnings: warnings };
            }
            """;

    private static final String NORMALIZING = SCRIPT + """
            function normalizeUplink(input) {
              return { data: { air: { temperature: input.data.temperature } } };
            }
            """;

    private static final List<Integer> ROOM = List.of(1, 103, 0, 215);

    private final Codecs codecs = new Codecs(Duration.ofSeconds(2));

    private UplinkCodec script(String source) {
        return codecs.resolve(new DeviceType("t", 1, DeviceType.JAVASCRIPT, source, null, null, Instant.EPOCH));
    }

    private static CodecExample example(String description, Integer fPort, List<Integer> bytes, String data) {
        return new CodecExample(
                description,
                new CodecExample.Input(fPort, bytes),
                new CodecExample.Output(EventJson.mapper().readTree(data), null, null),
                null);
    }

    private static CodecExample rejected(String description, List<Integer> bytes, List<String> errors) {
        return new CodecExample(
                description, new CodecExample.Input(2, bytes), new CodecExample.Output(null, null, errors), null);
    }

    private static CodecExample withWarnings(CodecExample example, List<String> warnings) {
        return new CodecExample(
                example.description(),
                example.input(),
                new CodecExample.Output(example.output().data(), warnings, null),
                example.normalizedOutput());
    }

    private static CodecExample withNormalized(CodecExample example, String data) {
        return new CodecExample(
                example.description(),
                example.input(),
                example.output(),
                new CodecExample.Output(EventJson.mapper().readTree(data), null, null));
    }

    @Test
    void examplesThatMatchTheOutputPassWithinTheNumericTolerance() {
        var check = CodecExamples.run(
                script(SCRIPT),
                List.of(
                        example("room", 2, ROOM, "{\"temperature\": 21.5000000000001, \"ok\": true}"),
                        rejected("short", List.of(1), List.of("payload too short", "expected 4 bytes"))));

        assertThat(check.passed()).isTrue();
        assertThat(check.total()).isEqualTo(2);
        assertThat(check.mismatches()).isEmpty();
    }

    @Test
    void aDifferentValueIsListedWithItsPathAndBothValues() {
        var check = CodecExamples.run(
                script(SCRIPT),
                List.of(
                        example("room", 2, ROOM, "{\"temperature\": 21.5, \"ok\": true}"),
                        example("warm", 2, List.of(1, 103, 0, 214), "{\"temperature\": 21.5, \"ok\": true}")));

        assertThat(check.failed()).isEqualTo(1);
        assertThat(check.mismatches()).containsExactly(new Mismatch(1, "warm", "data.temperature", 21.5, 21.4));
    }

    @Test
    void aMissingKeyHasActualNullAndAnUnexpectedKeyHasExpectedNull() {
        var check = CodecExamples.run(
                script(SCRIPT), List.of(example("room", 2, ROOM, "{\"temperature\": 21.5, \"humidity\": 40}")));

        assertThat(check.mismatches())
                .containsExactly(
                        new Mismatch(0, "room", "data.humidity", 40.0, null),
                        new Mismatch(0, "room", "data.ok", null, true));
    }

    @Test
    void aValueOfAnotherTypeDiffers() {
        var check = CodecExamples.run(
                script(SCRIPT), List.of(example("room", 2, ROOM, "{\"temperature\": \"21.5\", \"ok\": true}")));

        assertThat(check.mismatches()).containsExactly(new Mismatch(0, "room", "data.temperature", "21.5", 21.5));
    }

    @Test
    void expectedErrorsMustBeExactlyTheErrorsTheScriptReturned() {
        var check =
                CodecExamples.run(script(SCRIPT), List.of(rejected("short", List.of(1), List.of("payload too short"))));

        assertThat(check.mismatches())
                .containsExactly(new Mismatch(
                        0,
                        "short",
                        "errors",
                        List.of("payload too short"),
                        List.of("payload too short", "expected 4 bytes")));
    }

    @Test
    void anExampleExpectingErrorsFailsWhenThePayloadDecodes() {
        var check =
                CodecExamples.run(script(SCRIPT), List.of(rejected("not short", ROOM, List.of("payload too short"))));

        assertThat(check.mismatches())
                .containsExactly(new Mismatch(0, "not short", "errors", List.of("payload too short"), List.of()));
    }

    @Test
    void errorsTheExampleDoesNotExpectAreListedUnderErrors() {
        var check = CodecExamples.run(script(SCRIPT), List.of(example("short", 2, List.of(1), "{\"temperature\": 1}")));

        assertThat(check.mismatches())
                .containsExactly(new Mismatch(
                        0, "short", "errors", List.of(), List.of("payload too short", "expected 4 bytes")));
    }

    @Test
    void aScriptThatThrowsIsAMismatchUnderErrorWithItsMessage() {
        var check = CodecExamples.run(script(SCRIPT), List.of(example("crash", 2, List.of(9, 0, 0, 0), "{\"t\": 1}")));

        assertThat(check.mismatches()).singleElement().satisfies(mismatch -> {
            assertThat(mismatch.path()).isEqualTo("error");
            assertThat(mismatch.expected()).isNull();
            assertThat((String) mismatch.actual()).contains("channel 9 crashes");
        });
    }

    @Test
    void warningsAreComparedOnlyWhenTheExampleGivesThem() {
        var unchecked = example("port 3", 3, ROOM, "{\"temperature\": 21.5, \"ok\": true}");

        assertThat(CodecExamples.run(script(SCRIPT), List.of(unchecked)).passed())
                .isTrue();
        assertThat(CodecExamples.run(script(SCRIPT), List.of(withWarnings(unchecked, List.of("unexpected fPort 3"))))
                        .passed())
                .isTrue();
        assertThat(CodecExamples.run(script(SCRIPT), List.of(withWarnings(unchecked, List.of())))
                        .mismatches())
                .containsExactly(new Mismatch(0, "port 3", "warnings", List.of(), List.of("unexpected fPort 3")));
    }

    @Test
    void normalizedOutputIsComparedWithWhatNormalizeUplinkReturned() {
        var room = example("room", 2, ROOM, "{\"temperature\": 21.5, \"ok\": true}");

        var passing = CodecExamples.run(
                script(NORMALIZING), List.of(withNormalized(room, "{\"air\": {\"temperature\": 21.5}}")));
        var failing = CodecExamples.run(
                script(NORMALIZING), List.of(withNormalized(room, "{\"air\": {\"temperature\": 22}}")));

        assertThat(passing.passed()).isTrue();
        assertThat(failing.mismatches())
                .containsExactly(new Mismatch(0, "room", "normalizedOutput.data.air.temperature", 22.0, 21.5));
    }

    @Test
    void normalizedOutputFromAScriptWithoutNormalizeUplinkIsMissing() {
        var check = CodecExamples.run(
                script(SCRIPT),
                List.of(withNormalized(
                        example("room", 2, ROOM, "{\"temperature\": 21.5, \"ok\": true}"),
                        "{\"air\": {\"temperature\": 21.5}}")));

        assertThat(check.mismatches())
                .containsExactly(new Mismatch(0, "room", "normalizedOutput", Map.of("air.temperature", 21.5), null));
    }

    @Test
    void chirpStackAndTtnV2FormsRunTheirExamplesToo() {
        var decode = script("function Decode(fPort, bytes, variables) { return { port: fPort, first: bytes[0] }; }");
        var decoder = script("function Decoder(bytes, port) { return { port: port, first: bytes[0] }; }");
        var examples = List.of(example("one", 5, List.of(7), "{\"port\": 5, \"first\": 7}"));

        assertThat(CodecExamples.run(decode, examples).passed()).isTrue();
        assertThat(CodecExamples.run(decoder, examples).passed()).isTrue();
        assertThat(CodecForm.of(decode)).isEqualTo("Decode");
        assertThat(CodecForm.of(decoder)).isEqualTo("Decoder");
    }

    @Test
    void builtInCodecsAreComparedWithWhatTheyDecodeAndRefuseWithTheirMessageAsTheOneError() {
        var em300th = codecs.find("em300th").orElseThrow();
        var decoded = example(
                "reading",
                85,
                List.of(0x01, 0x75, 0x5C, 0x03, 0x67, 0x34, 0x01, 0x04, 0x68, 0x65),
                "{\"battery\": 92, \"temperature\": 30.8, \"humidity\": 50.5}");
        var unknownChannel = rejected("unknown", List.of(0x09, 0x09), List.of("refused"));

        assertThat(CodecExamples.run(em300th, List.of(decoded)).passed()).isTrue();
        assertThat(CodecExamples.run(em300th, List.of(unknownChannel)).mismatches())
                .singleElement()
                .satisfies(mismatch -> assertThat(mismatch.path()).isEqualTo("errors"));
        assertThat(CodecForm.of(em300th)).isEqualTo("built-in");
    }

    @Test
    void theFormShowsNormalizeUplinkWhenTheScriptDefinesIt() {
        assertThat(CodecForm.of(script(NORMALIZING))).isEqualTo("decodeUplink+normalizeUplink");
        assertThat(CodecForm.of(script(SCRIPT))).isEqualTo("decodeUplink");
    }

    @Test
    void theListOfMismatchesIsBoundedButEveryFailedExampleIsCounted() {
        var many = new ArrayList<CodecExample>();
        for (int i = 0; i < 100; i++) {
            many.add(example("wrong " + i, 2, ROOM, "{\"a\": 1, \"b\": 2, \"c\": 3}"));
        }

        var check = CodecExamples.run(script(SCRIPT), many);

        assertThat(check.failed()).isEqualTo(100);
        assertThat(check.mismatches()).hasSize(CodecExamples.MAX_MISMATCHES);
        assertThat(check.truncated()).isTrue();
    }

    @Test
    void validExamplesPassValidation() {
        assertThat(CodecExamples.validate(List.of(
                        example("room", 2, ROOM, "{\"t\": 1}"), rejected("short", List.of(), List.of("too short")))))
                .isEmpty();
        assertThat(CodecExamples.validate(null)).isEmpty();
    }

    @Test
    void validationNamesTheFieldOfAByteOutOfRange() {
        var examples = List.of(
                example("a", 2, ROOM, "{}"),
                example("b", 2, ROOM, "{\"t\": 1}"),
                example("c", 2, ROOM, "{\"t\": 1}"),
                example("d", 2, List.of(1, 256), "{\"t\": 1}"));

        assertThat(CodecExamples.validate(examples)).hasValueSatisfying(invalid -> {
            assertThat(invalid.field()).isEqualTo("examples[3].input.bytes");
            assertThat(invalid.problem()).contains("item 1 (256)");
        });
    }

    @Test
    void validationBoundsTheNumberOfExamplesAndTheirPayloads() {
        var tooMany = Collections.nCopies(CodecExamples.MAX_EXAMPLES + 1, example("a", 2, ROOM, "{\"t\": 1}"));
        var longPayload =
                List.of(example("long", 2, Collections.nCopies(CodecExamples.MAX_BYTES + 1, 0), "{\"t\": 1}"));

        assertThat(CodecExamples.validate(tooMany))
                .hasValueSatisfying(invalid -> assertThat(invalid.field()).isEqualTo("examples"));
        assertThat(CodecExamples.validate(longPayload))
                .hasValueSatisfying(invalid -> assertThat(invalid.field()).isEqualTo("examples[0].input.bytes"));
    }

    @Test
    void validationBoundsTheSizeOfAllExamplesTogether() {
        var big = "{\"text\": \"" + "x".repeat(CodecExamples.MAX_JSON_BYTES / 4) + "\"}";
        var examples = Collections.nCopies(5, example("big", 2, ROOM, big));

        assertThat(CodecExamples.validate(examples)).hasValueSatisfying(invalid -> {
            assertThat(invalid.field()).isEqualTo("examples");
            assertThat(invalid.problem()).contains("bytes as JSON");
        });
    }

    @Test
    void validationRequiresInputAndOutputWithDataOrErrors() {
        var noInput = new CodecExample("x", null, new CodecExample.Output(null, null, List.of("e")), null);
        var noOutput = new CodecExample("x", new CodecExample.Input(1, ROOM), null, null);
        var neither =
                new CodecExample("x", new CodecExample.Input(1, ROOM), new CodecExample.Output(null, null, null), null);
        var scalar = example("x", 1, ROOM, "42");
        var badPort = example("x", 256, ROOM, "{\"t\": 1}");

        assertThat(CodecExamples.validate(List.of(noInput)))
                .map(CodecExamples.Invalid::field)
                .hasValue("examples[0].input");
        assertThat(CodecExamples.validate(List.of(noOutput)))
                .map(CodecExamples.Invalid::field)
                .hasValue("examples[0].output");
        assertThat(CodecExamples.validate(List.of(neither)))
                .map(CodecExamples.Invalid::field)
                .hasValue("examples[0].output.data");
        assertThat(CodecExamples.validate(List.of(scalar)))
                .map(CodecExamples.Invalid::field)
                .hasValue("examples[0].output.data");
        assertThat(CodecExamples.validate(List.of(badPort)))
                .map(CodecExamples.Invalid::field)
                .hasValue("examples[0].input.fPort");
    }
}
