package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackLauncherTest {

    @TempDir
    Path temp;

    @Test
    void everythingAfterThenIsTheCommand() {
        var options = StackLauncher.Options.parse(
                "--processes", "--log", "stack.log", "--then", "k6/run", "smoke", "--log", "x");

        assertThat(options.processes()).isTrue();
        assertThat(options.log()).isEqualTo(Path.of("stack.log").toAbsolutePath());
        assertThat(options.then()).containsExactly("k6/run", "smoke", "--log", "x");
        assertThat(StackLauncher.Options.parse().then()).isNull();
        assertThatThrownBy(() -> StackLauncher.Options.parse("--then")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StackLauncher.Options.parse("--bogus")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCommandGetsTheStacksUrlsAndCredentialsAndItsExitCodeIsReturned() throws Exception {
        var settings = new LocalStack.Settings(
                temp, new LocalStack.Ports(38080, 38081, 38082, 38083), "key", "dash", "admin", 1);
        var env = StackLauncher.environment(settings);
        assertThat(env)
                .containsEntry("INGEST_URL", "http://127.0.0.1:38080")
                .containsEntry("DECODER_URL", "http://127.0.0.1:38081")
                .containsEntry("RULES_URL", "http://127.0.0.1:38082")
                .containsEntry("NOTIFY_URL", "http://127.0.0.1:38083")
                .containsEntry("WS_URL", "ws://127.0.0.1:38083/ws")
                .containsEntry("DEVICE_KEY", "key")
                .containsEntry("DASHBOARD_TOKEN", "dash")
                .containsEntry("ADMIN_TOKEN", "admin");

        var seen = temp.resolve("seen");
        int code = StackLauncher.run(
                List.of("sh", "-c", "echo \"$INGEST_URL $WS_URL\" > \"$1\"; exit 3", "sh", seen.toString()), env);

        assertThat(code).isEqualTo(3);
        assertThat(Files.readString(seen)).isEqualTo("http://127.0.0.1:38080 ws://127.0.0.1:38083/ws\n");
        assertThat(StackLauncher.run(List.of(temp.resolve("missing").toString()), Map.of()))
                .isEqualTo(127);
    }

    @Test
    void theTailOfTheLogIsItsLastLines() throws Exception {
        var log = temp.resolve("stack.log");
        Files.writeString(log, "1\n2\n3\n4\n");

        assertThat(StackLauncher.tail(log, 2)).isEqualTo("3\n4");
        assertThat(StackLauncher.tail(null, 2)).isEmpty();
    }
}
