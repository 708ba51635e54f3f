package dev.iotpipeline.localstack;

import dev.iotpipeline.localstack.KafkaBroker.Scram;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;

/** Writes what a {@link KafkaBroker} runs from under its data directory, and the JVM command that runs it. */
final class BrokerSetup {

    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final Scram scram;

    BrokerSetup(Path dir, int port, int controllerPort, Scram scram) {
        this.dir = dir;
        this.port = port;
        this.controllerPort = controllerPort;
        this.scram = scram;
    }

    /**
     * Writes the broker's configuration and logging configuration, formats its log directory the first time,
     * and returns the command that starts the broker.
     */
    ProcessBuilder prepare() throws IOException {
        var logDir = dir.resolve("logs");
        var config = dir.resolve("server.properties");
        Files.writeString(config, serverProperties(logDir));
        var logback = dir.resolve("logback-broker.xml");
        Files.writeString(logback, """
                <configuration>
                  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
                    <file>%s</file>
                    <encoder><pattern>%%d{ISO8601} %%-5level %%logger{36} - %%msg%%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="FILE"/></root>
                  <logger name="org.apache.kafka" level="WARN"/>
                  <logger name="kafka" level="WARN"/>
                  <logger name="kafka.server.KafkaRaftServer" level="INFO"/>
                </configuration>
                """.formatted(dir.resolve("broker.log")));
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            var format =
                    new ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
            if (scram != null) {
                // KRaft keeps SCRAM credentials in its metadata log; formatting is where the first ones go in.
                format.addAll(List.of(
                        "--add-scram", "SCRAM-SHA-256=[name=" + scram.user() + ",password=" + scram.password() + "]"));
            }
            format(format);
        }
        var options = new ArrayList<>(List.of(System.getenv()
                .getOrDefault("IOT_BROKER_JAVA_OPTS", "-Xms256m -Xmx768m -XX:+UseParallelGC")
                .trim()
                .split("\\s+")));
        options.addAll(AotCache.options(System.getenv(), "broker"));
        return java(List.of("kafka.Kafka", config.toString()), logback, options.toArray(String[]::new));
    }

    private String serverProperties(Path logDir) {
        var sasl = scram == null ? "" : ",SASL_PLAINTEXT://127.0.0.1:" + scram.port();
        return String.join(
                "\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort + sasl,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port + sasl,
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT",
                scram == null ? "" : "sasl.enabled.mechanisms=SCRAM-SHA-256",
                scram == null
                        ? ""
                        : "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config="
                                + "org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "inter.broker.listener.name=PLAINTEXT",
                "log.dirs=" + logDir,
                "num.partitions=3",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                // Kafka 4.1's group coordinator holds offset commits 5 ms to batch them; every consumer that
                // commits before its next poll (the decoder, the history writer) paid that on each batch.
                "group.coordinator.append.linger.ms=0",
                // Kafka's defaults (8 request handlers, 3 network threads) are sized for a server of its own; on a
                // box the broker shares with the whole pipeline, each request handed between that many threads cost
                // the broker about a fifth more CPU per uplink (docs/benchmarks/raw/experiments/broker-threads.md).
                "num.io.threads=" + Math.max(2, CORES),
                "num.network.threads=" + Math.max(1, CORES / 2),
                "");
    }

    private ProcessBuilder java(List<String> args, Path logback, String... jvmOptions) {
        var command = ChildJvm.command();
        command.addAll(List.of(jvmOptions));
        command.add("-Dlogback.configurationFile=" + logback);
        // The broker uses the same jars as this JVM: kafka_2.13 and a logging binding are on its classpath.
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(args);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("broker.out").toFile()));
    }

    /**
     * Formats in this JVM, which has the broker's jars on its class path: a JVM of its own cost every first start
     * one more JVM start (0.7 s on slow cores), and showed the SCRAM password in its command line. What the tool
     * prints goes to broker.out, as the broker's.
     */
    private void format(List<String> args) throws IOException {
        var printed = new ByteArrayOutputStream();
        int exit;
        try (var out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            exit = StorageTool.execute(args.toArray(String[]::new), out);
        } catch (RuntimeException e) {
            throw new IOException("Kafka storage format failed: " + e.getMessage(), e);
        } finally {
            Files.write(
                    dir.resolve("broker.out"),
                    printed.toByteArray(),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        if (exit != 0) {
            throw new IOException("Kafka storage format failed (exit " + exit + "); see " + dir.resolve("broker.out"));
        }
    }
}
