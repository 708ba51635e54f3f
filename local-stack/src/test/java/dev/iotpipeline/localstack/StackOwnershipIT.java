package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stack never talks to a stack it does not own, and leaves no process behind when it is killed. */
class StackOwnershipIT {

    @TempDir
    Path data;

    @Test
    void runRefusesToStartWhenAPortItNeedsIsTakenAndNamesTheProcess() throws Exception {
        try (var taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            var port = taken.getLocalPort();
            var builder = java(LocalStackMain.class.getName()).redirectErrorStream(true);
            builder.environment().put("IOT_DATA_DIR", data.toString());
            builder.environment().put("IOT_KAFKA_PORT", Integer.toString(port));
            var run = builder.start();

            assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();
            var output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(run.exitValue()).as(output).isEqualTo(2);
            assertThat(output)
                    .contains("port " + port + " (kafka) is taken by pid "
                            + ProcessHandle.current().pid());
            assertThat(output).doesNotContain("READY");
        }
    }

    @Test
    void childrenDieWhenTheirParentIsKilledWithSigkill() throws Exception {
        var parent = java(OrphanProbe.class.getName()).start();
        long child;
        try (var reader = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            child = Long.parseLong(reader.readLine().trim());
        }
        assertThat(ProcessHandle.of(child)).isPresent();

        parent.destroyForcibly();

        await().atMost(Duration.ofSeconds(15)).until(() -> gone(child));
    }

    /** Gone, or a zombie waiting for an init that does not reap: either way no longer running. */
    private static boolean gone(long pid) {
        try {
            var stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException noSuchProcess) {
            return true;
        }
    }

    private static ProcessBuilder java(String mainClass) {
        return new ProcessBuilder(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
    }
}
