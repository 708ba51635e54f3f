package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.ingest.metrics.IngestMetrics;
import dev.iotpipeline.web.PipelineWebConfiguration;
import dev.iotpipeline.web.problem.ProblemWriter;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.CredentialStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.json.JsonMapper;

/**
 * The device-facing edge in a web slice: the lean path in front of the real controllers, factory, item parser, routes
 * and problem layer, with the intake (rate limit and Kafka) mocked. What is refused never reaches the intake; a batch
 * is checked whole first. {@link UplinkApiMvcPathTest} runs the same tests with the lean path turned off.
 */
@WebMvcTest(
        properties = {
            "iot.security.device-keys[0].channel=north",
            "iot.security.device-keys[0].key=device-secret",
            "iot.security.admin-tokens[0]=admin-secret",
            "ingest.webhooks.device-types[the-things-products/the-things-uno]=em300th"
        })
class UplinkApiTest {

    private static final String HEX = "01755C03673401046865";

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({PipelineWebConfiguration.class, UplinkController.class, WebhookController.class})
    @EnableConfigurationProperties(IngestProperties.class)
    // IngestRoutes is package-private in another package: scanned by name rather than imported.
    @ComponentScan(basePackages = "dev.iotpipeline.ingest.access")
    static class Service {

        @Bean
        UplinkFactory uplinkFactory() {
            return new UplinkFactory(java.util.Set.of("em300th", "json")::contains, 64, Clock.systemUTC());
        }

        @Bean
        RequestItems requestItems() {
            return new RequestItems(3);
        }

        @Bean
        IngestMetrics ingestMetrics() {
            return new IngestMetrics(new SimpleMeterRegistry());
        }

        @Bean
        DeviceUplinks deviceUplinks(
                UplinkFactory factory,
                RequestItems items,
                UplinkIntake intake,
                IngestMetrics metrics,
                IngestProperties properties) {
            return new DeviceUplinks(
                    factory, items, intake, metrics, properties.webhooks().deviceTypes());
        }

        @Bean
        SimpleMeterRegistry requestMeters() {
            return new SimpleMeterRegistry();
        }

        @Bean
        Rehearsal rehearsal() {
            return new Rehearsal();
        }

        @Bean
        @ConditionalOnBooleanProperty(name = "ingest.device-path.lean", matchIfMissing = true)
        FilterRegistrationBean<LeanDevicePath> leanDevicePath(
                DeviceUplinks uplinks,
                CredentialStore credentials,
                ProblemWriter problems,
                JsonMapper json,
                SimpleMeterRegistry requestMeters,
                Rehearsal rehearsal) {
            var registration = new FilterRegistrationBean<>(new LeanDevicePath(
                    uplinks, credentials, problems, json, 1024, requestMeters, null, null, rehearsal));
            registration.addUrlPatterns(LeanDevicePath.PREFIX + "*");
            registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
            return registration;
        }
    }

    /** Whether the lean path answered the requests so far: it records the request timer itself. */
    boolean lean = true;

    @Autowired
    SimpleMeterRegistry requestMeters;

    @MockitoBean
    UplinkIntake intake;

    @Autowired
    MockMvc mvc;

    @Autowired
    Rehearsal rehearsal;

    @BeforeEach
    void acceptEverything() {
        when(intake.accept(any(), anyList(), anyString()))
                .thenAnswer(call -> call.<List<ReceivedUplink>>getArgument(1).stream()
                        .map(u -> new Accepted(u.event().id(), u.event().receivedAt()))
                        .toList());
        when(intake.rehearse(anyList(), anyString()))
                .thenAnswer(call -> call.<List<ReceivedUplink>>getArgument(0).stream()
                        .map(u -> new Accepted(u.event().id(), u.event().receivedAt()))
                        .toList());
    }

    private ResultActions postTo(String path, String body) throws Exception {
        return mvc.perform(post(path)
                .header("Authorization", "Bearer device-secret")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body));
    }

    @Test
    void shouldAnswerOneUplinkWithItsIdAndABatchWithOneEntryPerItem() throws Exception {
        postTo("/sensor-data/north/encoded/em300th", "{\"deviceId\":\"d1\",\"payloadHex\":\"" + HEX + "\"}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.id").isNotEmpty())
                .andExpect(jsonPath("$.receivedAt").isNotEmpty());
        postTo(
                        "/sensor-data/north/encoded/em300th",
                        "[{\"deviceId\":\"d1\",\"payloadHex\":\"" + HEX + "\"},"
                                + "{\"deviceId\":\"d2\",\"payloadHex\":\"" + HEX + "\"}]")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.accepted").value(2))
                .andExpect(jsonPath("$.items.length()").value(2));
        verify(intake).accept(any(), anyList(), eq("single"));
        verify(intake).accept(any(), anyList(), eq("batch"));
    }

    @Test
    void shouldRefuseWhatItCannotAcceptBeforeItReachesKafka() throws Exception {
        postTo("/sensor-data/north/encoded/nosuchtype", "not even json")
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value(endsWith("unknown-device-type")));
        postTo("/sensor-data/north/encoded/em300th", "{\"deviceId\":\"d1\",\"payloadHex\":\"zz\"}")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.type").value(endsWith("invalid-hex")));
        // one bad item refuses the whole batch
        postTo(
                        "/sensor-data/north/encoded/em300th",
                        "[{\"deviceId\":\"d1\",\"payloadHex\":\"" + HEX + "\"}," + "{\"payloadHex\":\"" + HEX + "\"}]")
                .andExpect(status().isBadRequest());
        // more items than ingest.limits.max-batch-size (3 here)
        postTo("/sensor-data/north/encoded/em300th", "[{},{},{},{}]").andExpect(status().isPayloadTooLarge());
        postTo("/sensor-data/south/encoded/em300th", "{\"deviceId\":\"d1\",\"payloadHex\":\"" + HEX + "\"}")
                .andExpect(status().isForbidden());
        verify(intake, never()).accept(any(), anyList(), anyString());
    }

    @Test
    void shouldAnswerTheDeviceRoutesOnTheLeanPathUnlessItIsTurnedOff() throws Exception {
        postTo("/sensor-data/north/encoded/em300th", "{\"deviceId\":\"d1\",\"payloadHex\":\"" + HEX + "\"}")
                .andExpect(status().isAccepted())
                .andExpect(content().contentType(MediaType.APPLICATION_JSON))
                .andExpect(header().string("X-Content-Type-Options", "nosniff"))
                .andExpect(header().string("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate"));

        var timer = requestMeters
                .find("http.server.requests")
                .tags("uri", "/sensor-data/{channel}/encoded/{deviceType}", "status", "202")
                .timer();
        assertThat(timer == null ? 0 : timer.count()).isEqualTo(lean ? 1 : 0);
    }

    @Test
    void shouldAnswerTheWarmupsRehearsalsAsAnUplinkSentToItsOwnTopicUncountedOnlyWithItsSecret() throws Exception {
        var body = "[{\"deviceId\":\"w1\",\"payloadHex\":\"" + HEX + "\"},{\"deviceId\":\"w2\",\"payloadHex\":\"" + HEX
                + "\"}]";
        long counted = accepted202();
        var rehearsed = mvc.perform(post("/sensor-data/warmup/encoded/em300th")
                .header(Rehearsal.HEADER, rehearsal.secret())
                .contentType(MediaType.APPLICATION_JSON)
                .content(body));
        if (lean) {
            rehearsed
                    .andExpect(status().isAccepted())
                    .andExpect(jsonPath("$.accepted").value(2));
        } else {
            // Without the lean path there is no rehearsal (and no warm-up that would send one).
            rehearsed.andExpect(status().isUnauthorized());
        }
        mvc.perform(post("/sensor-data/warmup/encoded/em300th")
                        .header(Rehearsal.HEADER, "0".repeat(64))
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(body))
                .andExpect(status().isUnauthorized());
        mvc.perform(post("/sensor-data/warmup/encoded/em300th")
                        .header(Rehearsal.HEADER, rehearsal.secret())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"deviceId\":\"w1\",\"payloadHex\":\"zz\"}"))
                .andExpect(status().is(lean ? 400 : 401));

        verify(intake, never()).accept(any(), anyList(), anyString());
        verify(intake, times(lean ? 1 : 0)).rehearse(anyList(), eq(rehearsal.topic()));
        assertThat(accepted202()).isEqualTo(counted);
    }

    /** The device route's 202s the request timer counted so far (the registry lives as long as the context). */
    private long accepted202() {
        var timer = requestMeters
                .find("http.server.requests")
                .tags("uri", "/sensor-data/{channel}/encoded/{deviceType}", "status", "202")
                .timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void shouldLeaveWhatTheLeanPathCannotAnswerExactlyToTheFullChainWithTheSameProblems() throws Exception {
        var body = "{\"deviceId\":\"d1\",\"payloadHex\":\"" + HEX + "\"}";
        mvc.perform(post("/sensor-data/north/encoded/em300th")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(body))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.type").value(endsWith("missing-credentials")));
        mvc.perform(post("/sensor-data/north/encoded/em300th")
                        .header("Authorization", "Bearer guess")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(body))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.type").value(endsWith("invalid-credentials")));
        mvc.perform(post("/sensor-data/north/encoded/em300th")
                        .header("Authorization", "Bearer admin-secret")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content(body))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.type").value(endsWith("wrong-role")));
        mvc.perform(post("/sensor-data/north/encoded/em300th")
                        .header("Authorization", "Bearer device-secret")
                        .contentType(MediaType.TEXT_PLAIN)
                        .content(body))
                .andExpect(status().isUnsupportedMediaType());
        mvc.perform(post("/sensor-data/north/encoded/em300th")
                        .header("Authorization", "Bearer device-secret")
                        .contentType(MediaType.APPLICATION_JSON)
                        .accept(MediaType.TEXT_HTML)
                        .content(body))
                .andExpect(status().isNotAcceptable());
        postTo("/sensor-data/north/encoded/em300th/extra", body).andExpect(status().isNotFound());
        verify(intake, never()).accept(any(), anyList(), anyString());
    }

    @Test
    void shouldPassTheIntakesRefusalOnWithItsHeaders() throws Exception {
        var overloaded = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "overloaded", "Too many uplinks");
        overloaded.getHeaders().set("Retry-After", "2");
        when(intake.accept(any(), anyList(), anyString())).thenThrow(overloaded);

        postTo("/sensor-data/north/encoded/em300th", "{\"deviceId\":\"d1\",\"payloadHex\":\"" + HEX + "\"}")
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.type").value(endsWith("overloaded")))
                .andExpect(jsonPath("$.instance").value("/sensor-data/north/encoded/em300th"));
    }

    @Test
    void shouldNameAWebhooksDeviceTypeByItsModelWhenThePathDoesNot() throws Exception {
        var tts = Files.readString(Path.of("src/test/resources/webhooks/tts-uplink-docs.json"));

        postTo("/sensor-data/north/webhooks/tts", tts).andExpect(status().isAccepted());
        postTo("/sensor-data/north/webhooks/chirpstack?event=join", "{}").andExpect(status().isNoContent());
        postTo("/sensor-data/north/webhooks/tts", "{\"end_device_ids\":{\"device_id\":\"d1\"},\"join_accept\":{}}")
                .andExpect(status().isNoContent());
        postTo("/sensor-data/north/webhooks/tts", "{\"end_device_ids\":{\"device_id\":\"d1\"}}")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.type").value(endsWith("missing-field")));

        @SuppressWarnings("unchecked")
        ArgumentCaptor<List<ReceivedUplink>> uplinks = ArgumentCaptor.forClass(List.class);
        verify(intake).accept(any(), uplinks.capture(), eq("tts"));
        var uplink = uplinks.getValue().getFirst().event();
        assertThat(uplink.deviceType()).isEqualTo("em300th");
        assertThat(uplink.channel()).isEqualTo("north");
        assertThat(uplink.receivedAt()).isBefore(Instant.now().plusSeconds(1));
    }
}
