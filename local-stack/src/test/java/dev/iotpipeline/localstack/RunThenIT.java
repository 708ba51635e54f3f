package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
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
        var log = data.resolve("stack.log");
        var seen = data.resolve("seen.txt");
        var ports = PipelineRun.freePorts();
        var builder = PipelineRun.command(
                data,
                ports,
                data.resolve("console.txt"),
                "--log",
                log.toString(),
                "--then",
                "sh",
                "-c",
                "echo \"$INGEST_URL $WS_URL $ADMIN_TOKEN\" > \"$1\"; exit 3",
                "sh",
                seen.toString());
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
                .isEqualTo(
                        "http://127.0.0.1:%d ws://127.0.0.1:%d/ws demo-admin-token\n",
                        ports.get("INGEST"), ports.get("NOTIFY"));
        assertThat(Files.readString(log))
                .contains("READY", "Stopping the pipeline...", "Stopped in ")
                // As quiet as ./pipeline run's console, although the stack starts on a thread of its own here.
                .doesNotContain("Starting application", "No active profile set", "Started application");
        // Stopped: every port it held is free again.
        for (int port : ports.values()) {
            try (var socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
