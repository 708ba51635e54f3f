package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher of the scripts: {@code ./pipeline run --then COMMAND} starts the stack, runs COMMAND with the stack's
 * URLs in its environment, stops the stack and exits with COMMAND's exit code.
 */
class RunThenIT {

    @TempDir
    Path data;

    @Test
    void theCommandRunsAgainstTheStackAndItsExitCodeIsTheRunsOnceTheStackStopped() throws Exception {
        var root = Path.of("").toAbsolutePath().getParent();
        var log = data.resolve("stack.log");
        var seen = data.resolve("seen.txt");
        var command = List.of(
                "bash",
                root.resolve("pipeline").toString(),
                "run",
                "--no-build",
                "--log",
                log.toString(),
                "--then",
                "sh",
                "-c",
                "echo \"$INGEST_URL $WS_URL $ADMIN_TOKEN\" > \"$1\"; exit 3",
                "sh",
                seen.toString());
        var builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(data.resolve("console.txt").toFile());
        var env = builder.environment();
        env.keySet().removeIf(PipelineRun::notForTheTests);
        env.put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
        env.put("IOT_DATA_DIR", data.resolve("stack").toString());
        var ports = new ArrayList<Integer>();
        for (var name : List.of(
                "IOT_INGEST_PORT",
                "IOT_DECODER_PORT",
                "IOT_RULES_PORT",
                "IOT_NOTIFY_PORT",
                "IOT_KAFKA_PORT",
                "IOT_KAFKA_CONTROLLER_PORT",
                "IOT_POSTGRES_PORT")) {
            int port = EmbeddedStack.freePort();
            ports.add(port);
            env.put(name, Integer.toString(port));
        }
        var run = builder.start();
        try {
            assertThat(run.waitFor(5, TimeUnit.MINUTES)).as("the run ended").isTrue();
        } finally {
            run.destroyForcibly();
        }

        assertThat(run.exitValue())
                .as(Files.readString(data.resolve("console.txt")))
                .isEqualTo(3);
        assertThat(Files.readString(seen))
                .isEqualTo("http://127.0.0.1:%d ws://127.0.0.1:%d/ws demo-admin-token\n", ports.get(0), ports.get(3));
        assertThat(Files.readString(log)).contains("READY", "Stopping the pipeline...");
        // Stopped: every port it held is free again.
        for (int port : ports) {
            try (var socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
