package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** What the tests and probes that run the stack as processes share: starting it, a rule, the stored alarms. */
final class ProcessStacks {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ProcessStacks() {}

    /** The services, the broker and a durable PostgreSQL as processes on free ports, with the test credentials. */
    static ProcessStack start(Path data) throws Exception {
        var settings = new LocalStack.Settings(
                data,
                new LocalStack.Ports(
                        EmbeddedStack.freePort(),
                        EmbeddedStack.freePort(),
                        EmbeddedStack.freePort(),
                        EmbeddedStack.freePort()),
                PipelineClient.DEVICE_KEY,
                PipelineClient.DASHBOARD_TOKEN,
                PipelineClient.ADMIN_TOKEN,
                3,
                // Seconds per process start, many in these tests; SupervisedRunIT starts with the warm-up, as
                // ./pipeline run --processes does.
                List.of("iot.warmup.enabled=false"),
                true);
        // Started from local-stack/, whose parent is the repository with the services' exec jars.
        var root = Path.of("").toAbsolutePath().getParent();
        return ProcessStack.start(
                settings, root, EmbeddedStack.freePort(), EmbeddedStack.freePort(), EmbeddedStack.freePort());
    }

    /**
     * Creates "temperature > 30" on {@code channel}: the 201 comes after the rules instance applied it to the rule
     * set its topology reads, so the next data unit is already evaluated against it.
     */
    static String createHotRule(ProcessStack stack, String channel) throws Exception {
        var response = HTTP.send(
                HttpRequest.newBuilder(URI.create(stack.url(Service.RULES) + "/rules"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + PipelineClient.ADMIN_TOKEN)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"hot\",\"filter\":{\"channel\":\""
                                + channel + "\"},\"condition\":\"temperature > 30\",\"severity\":\"MAJOR\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return PipelineClient.json(response.body()).get("id").asString();
    }

    /** The ids of the alarms PostgreSQL holds for a rule. */
    static Set<UUID> storedAlarms(ProcessStack stack, String ruleId) throws SQLException {
        var stored = new HashSet<UUID>();
        try (var connection = DriverManager.getConnection(stack.infrastructure().jdbcUrl(), Postgres.USER, "");
                var statement = connection.prepareStatement("SELECT alarm_id FROM alarms WHERE rule_id = ?")) {
            statement.setString(1, ruleId);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    stored.add(rows.getObject(1, UUID.class));
                }
            }
        }
        return stored;
    }
}
