package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The invariant checker finds what a broken pipeline would do: lose, double or reorder an accepted uplink. */
class InvariantCheckerIT {

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);
    private final InvariantChecker checker = new InvariantChecker(new InvariantChecker.Sources(
            stack.bootstrapServers(),
            stack.infrastructure().jdbcUrl(),
            stack.infrastructure().jdbcUser(),
            stack.infrastructure().jdbcPassword()));

    @Test
    void shouldPassForStoredUplinksAndReportMissingDoubledAndOutOfOrderOnes() throws Exception {
        // given three uplinks of one device, accepted and stored in the order they were sent
        var accepted = new ArrayList<InvariantChecker.Accepted>();
        for (int seq = 0; seq < 3; seq++) {
            var response = client.postUplink(
                    "checker", "em300th", "{\"deviceId\":\"chk-1\",\"payloadHex\":\"0175640367C800046850\"}");
            assertThat(response.statusCode()).isEqualTo(202);
            accepted.add(new InvariantChecker.Accepted(
                    UUID.fromString(
                            PipelineClient.json(response.body()).get("id").asString()),
                    "chk-1",
                    seq));
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> checker.check(accepted).stored() == 3);
        assertThat(checker.check(accepted).ok()).isTrue();

        // when the run claims an uplink that never reached the pipeline, the checker reports it missing
        var lost = new InvariantChecker.Accepted(Ids.newId(), "chk-1", 3);
        var withLost = new ArrayList<>(accepted);
        withLost.add(lost);
        var report = checker.check(withLost);
        assertThat(report.missing()).containsExactly(lost.id());
        assertThat(report.ok()).isFalse();

        // and a device whose first uplink is claimed to have been sent last is out of order
        var reordered = List.of(
                accepted.get(1),
                accepted.get(2),
                new InvariantChecker.Accepted(accepted.get(0).id(), "chk-1", 5));
        assertThat(checker.check(reordered).outOfOrderByDevice()).containsEntry("chk-1", 2);

        // and a second, different data unit stored for one uplink is a doubling
        var doubledUplink = accepted.get(2).id();
        try (var connection = DriverManager.getConnection(
                        stack.infrastructure().jdbcUrl(),
                        stack.infrastructure().jdbcUser(),
                        stack.infrastructure().jdbcPassword());
                var insert = connection.prepareStatement("""
                        INSERT INTO data_units (id, received_at, uplink_id, measured_at, decoded_at, schema_version,
                                                channel, device_type, device_id, measurements, attributes)
                        SELECT ?, received_at, uplink_id, measured_at, decoded_at, schema_version, channel,
                               device_type, device_id, measurements, attributes
                        FROM data_units WHERE id = ?""")) {
            insert.setObject(1, Ids.newId());
            insert.setObject(2, Ids.derive(doubledUplink, "data-unit"));
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
        assertThat(checker.check(accepted).doubled()).containsExactly(doubledUplink);
    }
}
