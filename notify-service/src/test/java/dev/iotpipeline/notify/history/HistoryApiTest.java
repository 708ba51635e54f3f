package dev.iotpipeline.notify.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.iotpipeline.events.AlarmCommand;
import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.web.PipelineWebConfiguration;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.ArgumentMatchers;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The history and device endpoints in a web slice, with the real controllers, routes and problem layer and the
 * stores mocked: who may read what, every parameter a query refuses before it reaches PostgreSQL, and
 * acknowledgements, which only ever go to alarm-commands.
 */
@WebMvcTest(
        properties = {
            "iot.security.admin-tokens[0]=admin-secret",
            "iot.security.dashboard-tokens[0].token=dash-secret",
            "iot.security.dashboard-tokens[0].channels[0]=north"
        })
class HistoryApiTest {

    private static final String FROM = "2026-11-20T00:00:00Z";
    private static final String TO = "2026-11-21T00:00:00Z";

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({PipelineWebConfiguration.class, HistoryController.class, AlarmController.class})
    @EnableConfigurationProperties(NotifyProperties.class)
    // NotifyRoutes is package-private in another package: scanned by name rather than imported.
    @ComponentScan(basePackages = "dev.iotpipeline.notify.access")
    static class Service {}

    @MockitoBean
    HistoryStore store;

    @MockitoBean
    AlarmStore alarms;

    @MockitoBean
    RegisteredDevices registered;

    @MockitoBean
    KafkaTemplate<String, Object> kafka;

    @Autowired
    MockMvc mvc;

    @Test
    void shouldAnswerTheBucketsOfEachMeasurementWithOnlyTheFunctionsAskedFor() throws Exception {
        var start = Instant.parse(FROM);
        when(store.aggregate(any(), eq("temperature"), eq(start), eq(Instant.parse(TO)), eq(Duration.ofHours(1))))
                .thenReturn(List.of(new HistoryStore.Bucket(start, 2L, 20.5, 20.0, 21.0, 41.0)));

        mvc.perform(get("/data-units/aggregate?channel=north&deviceId=d1&measurement=temperature,humidity&fn=max,count"
                                + "&from=" + FROM + "&to=" + TO)
                        .header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.bucket").value("PT1H"))
                .andExpect(jsonPath("$.fn[0]").value("max"))
                .andExpect(jsonPath("$.series.temperature[0].start").value(FROM))
                .andExpect(jsonPath("$.series.temperature[0].max").value(21.0))
                .andExpect(jsonPath("$.series.temperature[0].count").value(2))
                .andExpect(jsonPath("$.series.temperature[0].avg").doesNotExist())
                .andExpect(jsonPath("$.series.humidity").isEmpty());
    }

    @Test
    void shouldRefuseAnAggregateItCannotAnswerWithAProblemNamingTheParameter() throws Exception {
        var range = "&from=" + FROM + "&to=" + TO;
        var cases = Map.of(
                "deviceId=d1&measurement=t" + range, "channel",
                "channel=north&measurement=t" + range, "deviceId",
                "channel=north&deviceId=d1" + range, "measurement",
                "channel=north&deviceId=d1&measurement=t&to=" + TO, "from",
                "channel=north&deviceId=d1&measurement=t&bucket=PT0.5S" + range, "bucket",
                "channel=north&deviceId=d1&measurement=t&bucket=P1M" + range, "bucket",
                "channel=north&deviceId=d1&measurement=t&bucket=PT1S&from=2020-01-01T00:00:00Z&to=" + TO, "bucket",
                "channel=north&deviceId=d1&measurement=t&fn=median" + range, "fn",
                "channel=north&deviceId=d1&measurement=t,,h" + range, "measurement",
                "channel=north&deviceId=d1&measurement=t&from=" + TO + "&to=" + FROM, "to");
        for (var query : cases.entrySet()) {
            mvc.perform(get("/data-units/aggregate?" + query.getKey()).header("Authorization", "Bearer dash-secret"))
                    .andExpect(status().isBadRequest())
                    .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                    .andExpect(jsonPath("$.parameter").value(query.getValue()));
        }
        verify(store, never()).aggregate(any(), any(), any(), any(), any());
    }

    @Test
    void shouldKeepADashboardTokenToItsChannels() throws Exception {
        mvc.perform(get("/devices?channel=south").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.type").value(org.hamcrest.Matchers.endsWith("channel-forbidden")));
        mvc.perform(get("/data-units/aggregate?channel=south&deviceId=d&measurement=t&from=" + FROM + "&to=" + TO)
                        .header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isForbidden());
        mvc.perform(get("/devices?channel=north")).andExpect(status().isUnauthorized());

        when(store.devices(any(), anyInt()))
                .thenReturn(List.of(new HistoryStore.Device(
                        "north",
                        "d1",
                        "em300th",
                        Instant.parse(TO),
                        Instant.parse(TO),
                        UUID.randomUUID(),
                        Map.of("temperature", 21.5))));
        mvc.perform(get("/devices").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].deviceId").value("d1"))
                .andExpect(jsonPath("$[0].lastSeen").value(TO))
                .andExpect(jsonPath("$[0].measurements.temperature").value(21.5));
        verify(store)
                .devices(
                        org.mockito.ArgumentMatchers.argThat(q -> q.channels().equals(java.util.Set.of("north"))),
                        eq(100));
    }

    @Test
    void shouldListAChannelsRegisteredDevicesWithLastSeenOnlyForATokenThatMayReadIt() throws Exception {
        when(registered.page("north", "d0", false, 2))
                .thenReturn(new RegisteredDevices.Page(
                        "north",
                        List.of(new RegisteredDevices.Listed(
                                "d1", "em300th", Map.of("room", "12"), false, 1, Instant.parse(FROM), null)),
                        1,
                        null));

        mvc.perform(get("/devices/registered?channel=north&after=d0&enabled=false&limit=2")
                        .header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items[0].deviceId").value("d1"))
                .andExpect(jsonPath("$.items[0].enabled").value(false))
                .andExpect(jsonPath("$.items[0].credentials").value(1))
                .andExpect(jsonPath("$.items[0].lastSeen").doesNotExist())
                .andExpect(jsonPath("$.total").value(1));
        mvc.perform(get("/devices/registered").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType("application/problem+json"))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("channel")));
        mvc.perform(get("/devices/registered?channel=south").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.type").value(org.hamcrest.Matchers.endsWith("channel-forbidden")));
        mvc.perform(get("/devices/registered?channel=north")).andExpect(status().isUnauthorized());
        verify(registered, never()).page(eq("south"), any(), any(), anyInt());
    }

    @Test
    void shouldCountExactlyUnlessAnEstimateIsAskedFor() throws Exception {
        when(store.count(any())).thenReturn(7L);
        when(store.estimateCount(any())).thenReturn(9L);

        mvc.perform(get("/data-units/count?channel=north").header("Authorization", "Bearer dash-secret"))
                .andExpect(jsonPath("$.count").value(7))
                .andExpect(jsonPath("$.estimated").doesNotExist());
        mvc.perform(get("/data-units/count?channel=north&estimate=true").header("Authorization", "Bearer dash-secret"))
                .andExpect(jsonPath("$.count").value(9))
                .andExpect(jsonPath("$.estimated").value(true));
    }

    @Test
    void shouldAcknowledgeThroughAlarmCommandsCarryingACleanedAlarmAndOnlyInTheTokensChannels() throws Exception {
        var active = alarm("north", AlarmState.ACTIVE);
        var cleared = alarm("north", AlarmState.CLEARED);
        var elsewhere = alarm("south", AlarmState.ACTIVE);
        for (var alarm : List.of(active, cleared, elsewhere)) {
            when(alarms.alarm(alarm.alarmId())).thenReturn(java.util.Optional.of(alarm));
        }
        when(kafka.send(ArgumentMatchers.<ProducerRecord<String, Object>>any()))
                .thenReturn(java.util.concurrent.CompletableFuture.completedFuture(null));

        mvc.perform(post("/alarms/" + active.alarmId() + "/acknowledge").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.acknowledged").value(true));
        mvc.perform(post("/alarms/" + cleared.alarmId() + "/acknowledge").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isAccepted());
        mvc.perform(post("/alarms/" + elsewhere.alarmId() + "/acknowledge")
                        .header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isForbidden());
        mvc.perform(post("/alarms/" + UUID.randomUUID() + "/acknowledge").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"));

        @SuppressWarnings("unchecked")
        ArgumentCaptor<ProducerRecord<String, Object>> commands = ArgumentCaptor.forClass(ProducerRecord.class);
        verify(kafka, org.mockito.Mockito.times(2)).send(commands.capture());
        assertThat(commands.getAllValues()).allSatisfy(record -> {
            assertThat(record.topic()).isEqualTo("alarm-commands");
            assertThat(record.key()).isEqualTo("d1");
        });
        assertThat(commands.getAllValues())
                .map(ProducerRecord::value)
                .map(AlarmCommand.class::cast)
                .satisfiesExactly(
                        command -> {
                            assertThat(command.alarmId()).isEqualTo(active.alarmId());
                            assertThat(command.cleared()).isNull();
                            assertThat(command.by()).startsWith("dashboard:");
                        },
                        command -> assertThat(command.cleared()).isEqualTo(cleared));
    }

    private static AlarmEvent alarm(String channel, AlarmState state) {
        var at = Instant.parse(FROM);
        return new AlarmEvent(
                UUID.randomUUID(),
                AlarmEvent.SCHEMA_VERSION,
                UUID.randomUUID(),
                "r1",
                "hot",
                Severity.MAJOR,
                state,
                false,
                channel,
                "em300th",
                "d1",
                UUID.randomUUID(),
                Map.of("temperature", 41.0),
                at,
                at,
                state == AlarmState.CLEARED ? at.plusSeconds(60) : null,
                null);
    }
}
