package dev.iotpipeline.ingest.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.web.security.Credential;
import org.junit.jupiter.api.Test;

/** Runs each benchmark of {@link DeviceRegistryJmh} once on a small registry and checks its result; no timing. */
class DeviceRegistryJmhTest {

    private final DeviceRegistryJmh bench = new DeviceRegistryJmh();

    DeviceRegistryJmhTest() {
        bench.devices = 1000;
        bench.setUp();
    }

    @Test
    void aDeviceCredentialIsFoundAsItsOwnDevice() {
        var credential = (Credential.Device) bench.deviceCredential();

        assertThat(credential.deviceId()).isEqualTo("sensor-0");
        assertThat(credential.channels()).containsExactly("demo");
    }

    @Test
    void theChannelKeySpeaksForEveryDevice() {
        assertThat(((Credential.Device) bench.channelKey()).deviceId()).isNull();
    }

    @Test
    void theLookupFindsEverySampledDevice() {
        for (int i = 0; i < bench.hashes.length; i++) {
            assertThat(bench.lookup()).isNotNull();
        }
    }
}
