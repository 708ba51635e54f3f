package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The images' healthcheck script (deploy/docker/healthcheck.sh, bash with /dev/tcp) run against the real services:
 * healthy when readiness answers 200, unhealthy when the path fails or nothing listens. Compose starts each service
 * only after the ones it depends on pass it, so a script that never passes would stall the whole stack.
 */
class ImageHealthcheckIT {

    private static final String SCRIPT =
            ComposeModel.ROOT.resolve("deploy/docker/healthcheck.sh").toString();

    private final LocalStack stack = EmbeddedStack.shared();

    @Test
    void shouldPassForEveryReadyService() throws Exception {
        for (var url : List.of(stack.ingestUrl(), stack.decoderUrl(), stack.rulesUrl(), stack.notifyUrl())) {
            assertThat(healthcheck(String.valueOf(URI.create(url).getPort())))
                    .as(url)
                    .isZero();
        }
    }

    @Test
    void shouldFailWhenThePathIsNotOkOrNothingListens() throws Exception {
        var port = String.valueOf(URI.create(stack.ingestUrl()).getPort());
        assertThat(healthcheck(port, "/actuator/no-such-endpoint")).isNotZero();
        assertThat(healthcheck(String.valueOf(EmbeddedStack.freePort()))).isNotZero();
    }

    private static int healthcheck(String... arguments) throws Exception {
        var command = new java.util.ArrayList<>(List.of("bash", SCRIPT));
        command.addAll(List.of(arguments));
        var process = new ProcessBuilder(command).redirectErrorStream(true).start();
        var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(20, TimeUnit.SECONDS))
                .as("healthcheck finished: %s", output)
                .isTrue();
        return process.exitValue();
    }
}
