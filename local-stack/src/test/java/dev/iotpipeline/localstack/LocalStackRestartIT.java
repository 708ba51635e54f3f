package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStackRestartIT {

    @TempDir
    Path data;

    @Test
    void shouldKeepStoredDataRulesAndDeviceTypesAcrossARestart() throws Exception {
        // given a stack that stored three data units and holds a rule
        String ruleId;
        try (var stack = EmbeddedStack.start(data)) {
            var client = new PipelineClient(stack);
            for (int i = 0; i < 3; i++) {
                assertThat(client.postUplink(
                                        "restart",
                                        "em300th",
                                        "{\"deviceId\":\"r-1\",\"payloadHex\":\"01755C03673401046865\"}")
                                .statusCode())
                        .isEqualTo(202);
            }
            var rule = client.createRule("{\"name\":\"keep me\",\"condition\":\"humidity > 90\"}");
            ruleId = PipelineClient.json(rule.body()).get("id").asString();
            await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount("restart") == 3);
        }

        // when the stack starts again on the same data directory
        try (var stack = EmbeddedStack.start(data)) {
            var client = new PipelineClient(stack);

            // then the history, the rule and the built-in device type are still there and data still flows
            assertThat(client.storedCount("restart")).isEqualTo(3);
            assertThat(client.get(stack.rulesUrl() + "/rules/" + ruleId).body()).contains("keep me");
            assertThat(client.postUplink(
                                    "restart",
                                    "em300th",
                                    "{\"deviceId\":\"r-1\",\"payloadHex\":\"01755C03673401046865\"}")
                            .statusCode())
                    .isEqualTo(202);
            await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount("restart") == 4);
        }
    }
}
