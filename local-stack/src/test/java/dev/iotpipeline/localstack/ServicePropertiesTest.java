package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ServicePropertiesTest {

    private static final LocalStack.Settings SETTINGS = new LocalStack.Settings(
            Path.of("data"),
            LocalStack.Ports.DEFAULT,
            "key",
            "dashboard",
            "admin",
            LocalStack.Settings.DEFAULT_PARTITIONS);
    private static final Infrastructure INFRASTRUCTURE =
            new Infrastructure("kafka:9092", "jdbc:postgresql://postgres/iot", "iot", "");

    @Test
    void aServiceProcessWarmsUpLongerAndWaitsForItsCompilers() {
        for (var service : Service.values()) {
            assertThat(ServiceProperties.of(service, SETTINGS, INFRASTRUCTURE, 0, false))
                    .as("%s as a process", service)
                    .contains("iot.warmup.max-time=5s")
                    .doesNotContain("iot.warmup.settle-max-time=0");
        }
    }

    @Test
    void theSharedJvmKeepsEachServicesOwnWarmUpTimeAndDoesNotWaitForTheCompilers() {
        for (var service : Service.values()) {
            assertThat(ServiceProperties.of(service, SETTINGS, INFRASTRUCTURE, 0, true))
                    .as("%s in the shared JVM", service)
                    .contains("iot.warmup.settle-max-time=0")
                    .noneMatch(property -> property.startsWith("iot.warmup.max-time="));
        }
    }
}
