package dev.iotpipeline.ingest.auth;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.ingest.IngestProperties.ApiKey;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;

class DeviceKeysTest {

    private final DeviceKeys keys = new DeviceKeys(List.of(
            new ApiKey("irrigation", "irrigation-secret"),
            new ApiKey("greenhouse", "sha256:" + HexFormat.of().formatHex(DeviceKeys.sha256("greenhouse-secret"))),
            new ApiKey("*", "admin-secret")));

    @Test
    void shouldAcceptAKeyForItsOwnChannel() {
        assertThatCode(() -> keys.authorize("irrigation", "Bearer irrigation-secret")).doesNotThrowAnyException();
        assertThatCode(() -> keys.authorize("greenhouse", "bearer greenhouse-secret")).doesNotThrowAnyException();
        assertThatCode(() -> keys.authorize("anything", "Bearer admin-secret")).doesNotThrowAnyException();
    }

    @Test
    void shouldRejectAKeyOfAnotherChannelWith403() {
        assertStatus("greenhouse", "Bearer irrigation-secret", 403);
    }

    @Test
    void shouldRejectMissingOrUnknownKeysWith401() {
        assertStatus("irrigation", null, 401);
        assertStatus("irrigation", "Basic abc", 401);
        assertStatus("irrigation", "Bearer wrong", 401);
    }

    private void assertStatus(String channel, String header, int status) {
        assertThatThrownBy(() -> keys.authorize(channel, header))
                .isInstanceOfSatisfying(ErrorResponseException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.getStatusCode().value()).isEqualTo(status));
    }
}
