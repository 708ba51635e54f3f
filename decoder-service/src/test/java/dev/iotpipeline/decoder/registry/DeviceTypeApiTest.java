package dev.iotpipeline.decoder.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.kafka.topic.EventSerializer;
import dev.iotpipeline.kafka.topic.ReaderProperties;
import dev.iotpipeline.web.PipelineWebConfiguration;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.mock.MockProducerFactory;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.ResultMatcher;

/**
 * The registry API in a web slice with the real controller, routes, codecs and problem layer, and a mock
 * producer standing in for the device-types topic: conformance examples at {@code PUT}, forms, and the test
 * endpoint.
 */
@WebMvcTest(
        properties = {
            "iot.security.admin-tokens[0]=admin-secret",
            "iot.security.dashboard-tokens[0].token=dash-secret",
            "iot.security.dashboard-tokens[0].channels[0]=north"
        })
class DeviceTypeApiTest {

    /** Decodes channel 1 type 0x67 as a temperature in 0.1 °C; a short payload is refused with two errors. */
    private static final String SCRIPT = """
            function decodeUplink(input) {
              var b = input.bytes;
              if (b.length < 4) { return { errors: ['payload too short', 'expected 4 bytes'] }; }
              return { data: { temperature: ((b[2] << 8) | b[3]) / 10, status: 'ok' } };
            }
            function normalizeUplink(input) {
              return { data: { air: { temperature: input.data.temperature } } };
            }
            """;

    private static final List<Integer> ROOM = List.of(1, 103, 0, 215);

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({PipelineWebConfiguration.class, DeviceTypeController.class})
    @EnableConfigurationProperties(DecoderProperties.class)
    // DecoderRoutes is package-private in another package: scanned by name rather than imported.
    @ComponentScan(basePackages = "dev.iotpipeline.decoder.access")
    static class Service {

        @Bean
        Codecs codecs() {
            return new Codecs(Duration.ofSeconds(2));
        }

        /** Never started: the slice has no broker, and the controller applies its own writes. */
        @Bean
        DeviceTypeRegistry deviceTypeRegistry(Codecs codecs) {
            return new DeviceTypeRegistry(ReaderProperties.of("127.0.0.1:1"), codecs);
        }

        @Bean
        KeptOpen producer() {
            return new KeptOpen();
        }

        @Bean
        KafkaTemplate<String, Object> kafkaTemplate(KeptOpen producer) {
            return new KafkaTemplate<>(new MockProducerFactory<>(() -> producer));
        }
    }

    /** The template closes its producer after each send; the test reads what was sent afterwards. */
    static final class KeptOpen extends MockProducer<String, Object> {

        KeptOpen() {
            super(true, null, new StringSerializer(), new EventSerializer());
        }

        @Override
        public void close() {}

        @Override
        public void close(Duration timeout) {}
    }

    @Autowired
    MockMvc mvc;

    @Autowired
    KeptOpen producer;

    @Autowired
    DeviceTypeRegistry registry;

    @BeforeEach
    void forgetEarlierWrites() {
        producer.clear();
    }

    private ResultActions putType(String name, Map<String, ?> body) throws Exception {
        return mvc.perform(put("/device-types/" + name)
                .header("Authorization", "Bearer admin-secret")
                .contentType(MediaType.APPLICATION_JSON)
                .content(EventJson.mapper().writeValueAsString(body)));
    }

    private ResultActions putType(String name, String body) throws Exception {
        return mvc.perform(put("/device-types/" + name)
                .header("Authorization", "Bearer admin-secret")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body));
    }

    private ResultActions test(String name, String body) throws Exception {
        return test(name, body, "admin-secret");
    }

    private ResultActions test(String name, String body, String token) throws Exception {
        return mvc.perform(post("/device-types/" + name + "/test")
                .header("Authorization", "Bearer " + token)
                .contentType(MediaType.APPLICATION_JSON)
                .content(body));
    }

    private static Map<String, Object> example(String description, List<Integer> bytes, Map<String, ?> data) {
        return Map.of(
                "description",
                description,
                "input",
                Map.of("fPort", 2, "bytes", bytes),
                "output",
                Map.of("data", data));
    }

    private static Map<String, Object> javascript(List<?> examples) {
        return Map.of("codec", "javascript", "script", SCRIPT, "examples", examples);
    }

    private static ResultMatcher problem(String type) {
        return result -> {
            content()
                    .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                    .match(result);
            jsonPath("$.type")
                    .value("https://iot-pipeline.dev/problems/" + type)
                    .match(result);
        };
    }

    private DeviceType written() {
        assertThat(producer.history()).hasSize(1);
        return (DeviceType) producer.history().getFirst().value();
    }

    @Test
    void examplesThatAllPassStoreTheTypeWithThemAndItsForm() throws Exception {
        var examples = List.of(
                Map.of(
                        "description",
                        "room",
                        "input",
                        Map.of("fPort", 2, "bytes", ROOM),
                        "output",
                        Map.of("data", Map.of("temperature", 21.5, "status", "ok"), "warnings", List.of()),
                        "normalizedOutput",
                        Map.of("data", Map.of("air", Map.of("temperature", 21.5)))),
                // As The Things Network's codec YAML writes them, with fields the registry does not keep.
                Map.of(
                        "type",
                        "uplink",
                        "description",
                        "short",
                        "input",
                        Map.of("fPort", 2, "bytes", List.of(1), "recvTime", "2026-11-22T10:00:00Z"),
                        "output",
                        Map.of("errors", List.of("payload too short", "expected 4 bytes"))));

        putType("passing", javascript(examples))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.form").value("decodeUplink+normalizeUplink"))
                .andExpect(jsonPath("$.examples.length()").value(2))
                .andExpect(jsonPath("$.examples[0].input.bytes[3]").value(215));

        assertThat(written().form()).isEqualTo("decodeUplink+normalizeUplink");
        assertThat(written().examples()).hasSize(2);
        assertThat(EventJson.read(EventJson.write(written()), DeviceType.class))
                .as("read back from the topic, the registry must recognise its own write")
                .isEqualTo(written());
        mvc.perform(get("/device-types/passing").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.form").value("decodeUplink+normalizeUplink"))
                .andExpect(jsonPath("$.examples[1].output.errors[1]").value("expected 4 bytes"));
    }

    private static final String TEMPERATURE = "$.mismatches[?(@.path == 'data.temperature')]";
    private static final String HUMIDITY = "$.mismatches[?(@.path == 'data.humidity')]";

    @Test
    void aMismatchingExampleIsRefusedWith422ListingTheDifferenceAndNothingIsWritten() throws Exception {
        putType(
                        "mismatching",
                        javascript(List.of(
                                example("room", ROOM, Map.of("temperature", 21.5, "status", "ok")),
                                example("cooler", ROOM, Map.of("temperature", 21.4, "status", "ok", "humidity", 40)))))
                .andExpect(status().isUnprocessableContent())
                .andExpect(problem("codec-examples-failed"))
                .andExpect(jsonPath("$.detail").value(Matchers.startsWith("1 of 2 examples failed")))
                .andExpect(jsonPath("$.mismatches.length()").value(2))
                .andExpect(jsonPath("$.mismatches[*].example").value(Matchers.contains(1, 1)))
                .andExpect(jsonPath("$.mismatches[*].description").value(Matchers.contains("cooler", "cooler")))
                .andExpect(jsonPath(TEMPERATURE + ".expected").value(Matchers.contains(21.4)))
                .andExpect(jsonPath(TEMPERATURE + ".actual").value(Matchers.contains(21.5)))
                .andExpect(jsonPath(HUMIDITY + ".expected").value(Matchers.contains(40.0)))
                .andExpect(jsonPath(HUMIDITY).value(Matchers.contains(Matchers.hasKey("actual"))))
                .andExpect(jsonPath(HUMIDITY + ".actual").value(Matchers.contains(Matchers.nullValue())));

        assertThat(producer.history()).isEmpty();
        assertThat(registry.find("mismatching")).isEmpty();
    }

    @Test
    void errorsTheScriptReturnsOtherThanExpectedAreListedUnderErrors() throws Exception {
        putType(
                        "wrong-errors",
                        javascript(List.of(Map.of(
                                "description",
                                "short",
                                "input",
                                Map.of("bytes", List.of(1)),
                                "output",
                                Map.of("errors", List.of("payload too short"))))))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.mismatches[0].path").value("errors"))
                .andExpect(jsonPath("$.mismatches[0].expected[0]").value("payload too short"))
                .andExpect(jsonPath("$.mismatches[0].actual[1]").value("expected 4 bytes"));

        assertThat(producer.history()).isEmpty();
    }

    @Test
    void normalizedOutputIsCheckedAgainstNormalizeUplink() throws Exception {
        putType(
                        "normalized",
                        javascript(List.of(Map.of(
                                "description",
                                "room",
                                "input",
                                Map.of("bytes", ROOM),
                                "output",
                                Map.of("data", Map.of("temperature", 21.5, "status", "ok")),
                                "normalizedOutput",
                                Map.of("data", List.of(Map.of("air", Map.of("temperature", 21.5))))))))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.mismatches[0].path").value("normalizedOutput.data.0.air.temperature"))
                .andExpect(jsonPath("$.mismatches[1].path").value("normalizedOutput.data.air.temperature"))
                .andExpect(jsonPath("$.mismatches[1].expected").value(Matchers.nullValue()));
    }

    @Test
    void aTypeWithoutExamplesIsStoredWithTheFormItsFunctionsName() throws Exception {
        putType("plain", Map.of("codec", "javascript", "script", SCRIPT))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.form").value("decodeUplink+normalizeUplink"))
                .andExpect(jsonPath("$.examples.length()").value(0));
        putType(
                        "chirpstack",
                        Map.of(
                                "codec",
                                "javascript",
                                "script",
                                "function Decode(fPort, bytes, variables) { return { first: bytes[0] }; }"))
                .andExpect(jsonPath("$.form").value("Decode"));
    }

    @Test
    void builtInCodecsShowTheBuiltInFormAndRunTheirExamples() throws Exception {
        putType(
                        "lht",
                        Map.of(
                                "codec",
                                "lht65",
                                "examples",
                                List.of(example(
                                        "reading",
                                        List.of(0xCB, 0xF6, 0x0B, 0x0D, 0x03, 0x76, 0x01, 0x0A, 0xDD, 0x7F, 0xFF),
                                        Map.of(
                                                "BatV",
                                                3.062,
                                                "TempC_SHT",
                                                28.29,
                                                "Hum_SHT",
                                                88.6,
                                                "TempC_DS",
                                                27.81,
                                                "Bat_status",
                                                3,
                                                "Ext_sensor",
                                                1)))))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.form").value("built-in"));
    }

    @Test
    void aTypeRegisteredBeforeFormsWereRecordedShowsTheFormOfItsCodec() throws Exception {
        registry.apply("old-em", new DeviceType("old-em", 1, "em300th", null, null, null, Instant.EPOCH));
        registry.apply(
                "old-js",
                new DeviceType(
                        "old-js",
                        1,
                        DeviceType.JAVASCRIPT,
                        "function Decoder(bytes, port) { return { b: bytes[0] }; }",
                        null,
                        null,
                        Instant.EPOCH));

        mvc.perform(get("/device-types").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.name == 'old-em')].form").value("built-in"))
                .andExpect(jsonPath("$[?(@.name == 'old-js')].form").value("Decoder"));
    }

    @Test
    void aNewNormalizingTypeKeepsTheDecodedNamesAndAPutWithoutTheChoiceKeepsTheStoredOne() throws Exception {
        putType("both", Map.of("codec", "javascript", "script", SCRIPT))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.primaryOutput").value("decoded"));
        assertThat(written().primaryOutput()).isEqualTo("decoded");

        producer.clear();
        putType("both", Map.of("codec", "javascript", "script", SCRIPT, "primaryOutput", "normalized"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.primaryOutput").value("normalized"));
        producer.clear();
        putType("both", Map.of("codec", "javascript", "script", SCRIPT, "description", "edited"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.primaryOutput").value("normalized"));
        assertThat(written().primaryOutput()).isEqualTo("normalized");
        test("both", "{\"bytes\": [1, 103, 0, 215]}")
                .andExpect(jsonPath("$.measurements['air.temperature']").value(21.5))
                .andExpect(jsonPath("$.measurements['decoded.temperature']").value(21.5))
                .andExpect(jsonPath("$.attributes['decoded.status']").value("ok"));
        test("both", "{\"bytes\": [1, 103, 0, 215], \"primaryOutput\": \"decoded\"}")
                .andExpect(jsonPath("$.primaryOutput").value("decoded"))
                .andExpect(
                        jsonPath("$.measurements['normalized.air.temperature']").value(21.5));
    }

    @Test
    void aNormalizingTypeRecordedBeforeBothOutputsWereKeptShowsAndKeepsTheNormalizedNames() throws Exception {
        registry.apply(
                "old-normalizing",
                new DeviceType("old-normalizing", 1, DeviceType.JAVASCRIPT, SCRIPT, null, null, Instant.EPOCH));

        mvc.perform(get("/device-types/old-normalizing").header("Authorization", "Bearer dash-secret"))
                .andExpect(jsonPath("$.primaryOutput").value("normalized"));
        putType("old-normalizing", Map.of("codec", "javascript", "script", SCRIPT))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.primaryOutput").value("normalized"));
    }

    @Test
    void aPrimaryOutputTheCodecCannotGiveIsRefusedWith400NamingTheField() throws Exception {
        putType(
                        "one-output",
                        Map.of(
                                "codec",
                                "javascript",
                                "primaryOutput",
                                "normalized",
                                "script",
                                "function decodeUplink(input) { return { data: { t: 1 } }; }"))
                .andExpect(status().isBadRequest())
                .andExpect(problem("invalid-field"))
                .andExpect(jsonPath("$.field").value("primaryOutput"))
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("normalizeUplink")));
        putType("one-output", Map.of("codec", "javascript", "script", SCRIPT, "primaryOutput", "raw"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("primaryOutput"))
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("neither decoded nor normalized")));
        putType("one-output", Map.of("codec", "em300th"))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.primaryOutput").value("decoded"));

        assertThat(producer.history()).hasSize(1);
    }

    @Test
    void normalizedOutputWarningsAreComparedWithWhatNormalizeUplinkWarned() throws Exception {
        putType(
                        "normalized-warnings",
                        javascript(List.of(Map.of(
                                "description",
                                "room",
                                "input",
                                Map.of("bytes", ROOM),
                                "output",
                                Map.of("data", Map.of("temperature", 21.5, "status", "ok")),
                                "normalizedOutput",
                                Map.of(
                                        "data",
                                        Map.of("air", Map.of("temperature", 21.5)),
                                        "warnings",
                                        List.of("estimated"))))))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.mismatches[0].path").value("normalizedOutput.warnings"))
                .andExpect(jsonPath("$.mismatches[0].expected[0]").value("estimated"));
    }

    @Test
    void examplesOutOfBoundsAreRefusedWith400NamingTheField() throws Exception {
        var fine = example("fine", ROOM, Map.of("temperature", 21.5, "status", "ok"));
        putType("bounded", javascript(List.of(fine, fine, fine, example("bad", List.of(1, 300), Map.of("t", 1)))))
                .andExpect(status().isBadRequest())
                .andExpect(problem("invalid-field"))
                .andExpect(jsonPath("$.field").value("examples[3].input.bytes"));
        putType("bounded", javascript(List.of(Map.of("input", Map.of("bytes", ROOM)))))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("examples[0].output"));
        putType("bounded", """
                {"codec": "javascript", "script": "function decodeUplink(i) { return {data: {}}; }",
                 "examples": [{"input": {"bytes": "AQI="}, "output": {"data": {}}}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(problem("invalid-field"))
                .andExpect(jsonPath("$.field").value("examples[0].input.bytes"));

        assertThat(producer.history()).isEmpty();
    }

    @Test
    void testDecodesWithTheStoredTypeAndItsMappingAndWritesNothing() throws Exception {
        putType(
                        "tested",
                        Map.of(
                                "codec",
                                "javascript",
                                "script",
                                SCRIPT,
                                "mapping",
                                Map.of("normalized.air.temperature", Map.of("name", "airTemperature"))))
                .andExpect(status().isCreated());
        producer.clear();

        test("tested", "{\"fPort\": 2, \"bytes\": [1, 103, 0, 215]}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.deviceType").value("tested"))
                .andExpect(jsonPath("$.form").value("decodeUplink+normalizeUplink"))
                .andExpect(jsonPath("$.primaryOutput").value("decoded"))
                .andExpect(jsonPath("$.measurements.temperature").value(21.5))
                .andExpect(jsonPath("$.measurements.airTemperature").value(21.5))
                .andExpect(jsonPath("$.attributes.status").value("ok"))
                .andExpect(jsonPath("$.output.temperature").value(21.5))
                .andExpect(jsonPath("$.output.status").value("ok"))
                .andExpect(jsonPath("$.normalized['air.temperature']").value(21.5));

        assertThat(producer.history()).isEmpty();
    }

    @Test
    void testTakesThePayloadAsBytesBase64OrHexAlike() throws Exception {
        putType("alike", Map.of("codec", "javascript", "script", SCRIPT)).andExpect(status().isCreated());

        for (var body : List.of(
                "{\"bytes\": [1, 103, 0, 215]}", "{\"payload\": \"AWcA1w==\"}", "{\"payloadHex\": \"016700D7\"}")) {
            test("alike", body)
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.normalized['air.temperature']").value(21.5));
        }
    }

    @Test
    void testOfAPayloadTheCodecRejectsIs422WithItsErrors() throws Exception {
        putType("rejecting", Map.of("codec", "javascript", "script", SCRIPT)).andExpect(status().isCreated());

        test("rejecting", "{\"bytes\": [1]}")
                .andExpect(status().isUnprocessableContent())
                .andExpect(problem("codec-rejected-payload"))
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("payload too short")))
                .andExpect(jsonPath("$.errors[0]").value("payload too short"))
                .andExpect(jsonPath("$.errors[1]").value("expected 4 bytes"));
        test("em300th-unknown-channel", "{\"payloadHex\": \"0909\", \"codec\": \"em300th\"}")
                .andExpect(status().isUnprocessableContent())
                .andExpect(problem("codec-rejected-payload"))
                .andExpect(jsonPath("$.errors").doesNotExist());
    }

    @Test
    void testOfAnUnknownTypeIs404() throws Exception {
        test("nobody", "{\"bytes\": [1]}").andExpect(status().isNotFound()).andExpect(problem("unknown-device-type"));
    }

    @Test
    void testTriesACodecGivenInTheBodyWithoutStoringIt() throws Exception {
        test("draft", """
                {"bytes": [1, 103, 0, 215], "codec": "javascript",
                 "script": "function Decoder(bytes, port) { return { t: bytes[3], port: port }; }",
                 "mapping": {"t": {"name": "temperature", "scale": 0.1}}, "fPort": 9}""")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.form").value("Decoder"))
                .andExpect(jsonPath("$.measurements.temperature").value(Matchers.closeTo(21.5, 1e-9)))
                .andExpect(jsonPath("$.output.port").value(9.0))
                .andExpect(jsonPath("$.normalized").doesNotExist());

        assertThat(registry.find("draft")).isEmpty();
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void testBodiesWithoutExactlyOnePayloadOrWithABadOneAre400NamingTheField() throws Exception {
        putType("bodies", Map.of("codec", "em300th")).andExpect(status().isCreated());

        test("bodies", "{\"fPort\": 2}")
                .andExpect(status().isBadRequest())
                .andExpect(problem("invalid-field"))
                .andExpect(jsonPath("$.field").value("payload"));
        test("bodies", "{\"bytes\": [1], \"payloadHex\": \"01\"}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("payloadHex"));
        test("bodies", "{\"payloadHex\": \"0g\"}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("payloadHex"));
        test("bodies", "{\"payload\": \"***\"}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("payload"));
        test("bodies", "{\"bytes\": [1, -1]}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("bytes"));
        test("bodies", "{\"bytes\": [1], \"fPort\": 256}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("fPort"));
        test("bodies", "{\"bytes\": [1], \"script\": \"function Decoder(b) { return {}; }\"}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("codec"));
    }

    @Test
    void testIsForAdminsOnly() throws Exception {
        putType("guarded", Map.of("codec", "em300th")).andExpect(status().isCreated());

        test("guarded", "{\"payloadHex\": \"01755C\"}", "dash-secret")
                .andExpect(status().isForbidden())
                .andExpect(problem("wrong-role"));
        mvc.perform(post("/device-types/guarded/test")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"payloadHex\": \"01755C\"}"))
                .andExpect(status().isUnauthorized());
        test("guarded", "{\"payloadHex\": \"01755C\"}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.form").value("built-in"))
                .andExpect(jsonPath("$.measurements.battery").value(92.0));
    }
}
