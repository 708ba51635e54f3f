package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class RulesLifecycleIT {

    private static final String HOT = "{\"deviceId\":\"%s\",\"payloadHex\":\"01755C03673401046865\"}";
    private static final String COOL = "{\"deviceId\":\"%s\",\"payloadHex\":\"0175640367C800046850\"}";

    @TempDir
    Path data;

    @Test
    void shouldRaiseOnTheNextUplinkAfterTheRuleIsCreatedAndKeepAlarmStateAcrossARestart() throws Exception {
        try (var stack = EmbeddedStack.start(data)) {
            var client = new PipelineClient(stack);
            try (var dashboard = client.dashboard()) {
                dashboard.send(
                        "{\"type\":\"subscribe\",\"id\":\"a\",\"stream\":\"alarms\",\"filter\":{\"channel\":\"life\"}}");
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> dashboard.ofType("subscribed").size() == 1);

                // given a rule created over HTTP, and right after it a matching uplink
                var rule = client.createRule("{\"name\":\"hot\",\"filter\":{\"channel\":\"life\"},"
                        + "\"condition\":\"temperature > 30\",\"severity\":\"CRITICAL\"}");
                assertThat(rule.statusCode()).isEqualTo(201);
                var uplink = client.postUplink("life", "em300th", HOT.formatted("d-1"));
                var uplinkId = UUID.fromString(
                        PipelineClient.json(uplink.body()).get("id").asString());

                // then that very uplink raises the alarm, delivered on the WebSocket
                await().atMost(Duration.ofSeconds(10)).until(() -> alarms(dashboard, "ACTIVE", false) == 1);
                var raised = alarm(dashboard, "ACTIVE", false);
                assertThat(raised.get("dataUnitId").asString())
                        .isEqualTo(Ids.derive(uplinkId, "data-unit").toString());

                // when an operator acknowledges it through notify-service
                var alarmId = raised.get("alarmId").asString();
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> client.getHistory("/alarms/" + alarmId).statusCode() == 200);
                var ack = client.post(
                        stack.notifyUrl() + "/alarms/" + alarmId + "/acknowledge",
                        Map.of("Authorization", "Bearer " + PipelineClient.DASHBOARD_TOKEN),
                        "");
                assertThat(ack.statusCode()).isEqualTo(202);
                await().atMost(Duration.ofSeconds(10)).until(() -> alarms(dashboard, "ACTIVE", true) == 1);

                // and rules-service restarts, a hot uplink does not raise the alarm again
                stack.restartRules();
                client.postUplink("life", "em300th", HOT.formatted("d-1"));
                client.postUplink("life", "em300th", COOL.formatted("d-1"));

                // and the clear that follows still knows it was acknowledged
                await().atMost(Duration.ofSeconds(60)).until(() -> alarms(dashboard, "CLEARED", true) == 1);
                assertThat(alarms(dashboard, "ACTIVE", false)).isEqualTo(1);
                assertThat(alarm(dashboard, "CLEARED", true).get("alarmId").asString())
                        .isEqualTo(alarmId);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> PipelineClient.json(
                                        client.getHistory("/alarms/" + alarmId).body())
                                .get("state")
                                .asString()
                                .equals("CLEARED"));

                // and an alarm raised and cleared unacknowledged is acknowledged afterwards, through rules too
                client.postUplink("life", "em300th", HOT.formatted("d-2"));
                await().atMost(Duration.ofSeconds(30)).until(() -> alarms(dashboard, "ACTIVE", false) == 2);
                client.postUplink("life", "em300th", COOL.formatted("d-2"));
                await().atMost(Duration.ofSeconds(30)).until(() -> alarms(dashboard, "CLEARED", false) == 1);
                var clearedId =
                        alarm(dashboard, "CLEARED", false).get("alarmId").asString();
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> PipelineClient.json(client.getHistory("/alarms/" + clearedId)
                                        .body())
                                .get("state")
                                .asString()
                                .equals("CLEARED"));
                assertThat(client.post(
                                        stack.notifyUrl() + "/alarms/" + clearedId + "/acknowledge",
                                        Map.of("Authorization", "Bearer " + PipelineClient.DASHBOARD_TOKEN),
                                        "")
                                .statusCode())
                        .isEqualTo(202);
                await().atMost(Duration.ofSeconds(30)).until(() -> alarms(dashboard, "CLEARED", true) == 2);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> PipelineClient.json(client.getHistory("/alarms/" + clearedId)
                                        .body())
                                .get("acknowledged")
                                .asBoolean());
            }
        }
    }

    private static long alarms(PipelineClient.Dashboard dashboard, String state, boolean acknowledged) {
        return dashboard.ofType("alarm").stream()
                .map(m -> m.get("data"))
                .filter(a -> a.get("state").asString().equals(state)
                        && a.get("acknowledged").asBoolean() == acknowledged)
                .count();
    }

    private static JsonNode alarm(PipelineClient.Dashboard dashboard, String state, boolean acknowledged) {
        return dashboard.ofType("alarm").stream()
                .map(m -> m.get("data"))
                .filter(a -> a.get("state").asString().equals(state)
                        && a.get("acknowledged").asBoolean() == acknowledged)
                .findFirst()
                .orElseThrow();
    }
}
