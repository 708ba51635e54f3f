package dev.iotpipeline.ingest.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.ChannelPolicy;
import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.ingest.registry.DeviceRequests.CredentialRequest;
import dev.iotpipeline.ingest.registry.DeviceRequests.DeviceRequest;
import dev.iotpipeline.kafka.topic.CompactedRegistry;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.CredentialStore;
import dev.iotpipeline.web.security.SecurityProperties;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The registry's changes against an in-memory copy, Kafka replaced by a sender that takes every record at once (the
 * topics' tails are never started): what each change writes, and what a device credential may then do.
 */
class RegistrarTest {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    private static final Map<String, Object> NO_BROKER = Map.of(
            "bootstrap.servers", "127.0.0.1:1",
            "key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer",
            "value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");

    private final MutableClock clock = new MutableClock(T0);
    private final DeviceRegistry registry = new DeviceRegistry(clock);
    private final CompactedRegistry<RegisteredDevice> devices =
            new CompactedRegistry<>(NO_BROKER, PipelineTopic.DEVICES, registry::apply);
    private final CompactedRegistry<ChannelPolicy> policies =
            new CompactedRegistry<>(NO_BROKER, PipelineTopic.CHANNEL_POLICIES, registry::applyPolicy);
    private final List<ProducerRecord<String, Object>> written = new ArrayList<>();
    private final CredentialStore configured = new CredentialStore(new SecurityProperties(
            List.of("admin-secret-123456"),
            List.of(),
            List.of(new SecurityProperties.DeviceKey("demo", "channel-key-123456", null)),
            null,
            Duration.ofSeconds(5)));
    private final Registrar registrar = new Registrar(
            registry,
            devices,
            policies,
            record -> {
                written.add(record);
                return CompletableFuture.completedFuture(null);
            },
            configured,
            clock,
            Duration.ofHours(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5));
    private final DeviceImport imports = new DeviceImport(JsonMapper.builder().build(), 1000);

    @AfterEach
    void close() {
        devices.close();
        policies.close();
    }

    @Test
    void shouldCreateThenReplaceADeviceKeepingItsCredentials() {
        var created = registrar.put(
                "demo", "s1", new DeviceRequest("lht65", Map.of("floor", "3"), null, "first-secret-0001"));
        var replaced = registrar.put("demo", "s1", new DeviceRequest("lht65", Map.of(), false, null));

        assertThat(created.created()).isTrue();
        assertThat(replaced.created()).isFalse();
        assertThat(replaced.device().enabled()).isFalse();
        assertThat(replaced.device().credentials()).hasSize(1);
        assertThat(written).extracting(ProducerRecord::key).containsExactly("demo/s1", "demo/s1");
        assertThat(written.getFirst().value().toString()).doesNotContain("first-secret-0001");
    }

    @Test
    void shouldLetADeviceCredentialSendOnlyAsItsOwnDevice() {
        registrar.put("demo", "s1", new DeviceRequest(null, null, null, "first-secret-0001"));
        var credential = (Credential.Device) registry.find(CredentialStore.sha256("first-secret-0001"));

        registry.admit(credential, "demo", "s1");
        assertThat(credential.allows("demo")).isTrue();
        assertThat(credential.allows("other")).isFalse();
        assertProblem(() -> registry.admit(credential, "demo", "s2"), 403, "wrong-device");
    }

    @Test
    void shouldRefuseADisabledDeviceWhateverCredentialItSendsWith() {
        registrar.put("demo", "s1", new DeviceRequest(null, null, false, "first-secret-0001"));
        var own = (Credential.Device) registry.find(CredentialStore.sha256("first-secret-0001"));
        var channelKey = new Credential.Device("key", Set.of("demo"), null);

        assertProblem(() -> registry.admit(own, "demo", "s1"), 403, "device-disabled");
        assertProblem(() -> registry.admit(channelKey, "demo", "s1"), 403, "device-disabled");
    }

    @Test
    void shouldRefuseUnknownDevicesOnlyWhereTheChannelTakesRegisteredOnes() {
        var channelKey = new Credential.Device("key", Set.of("demo"), null);
        registry.admit(channelKey, "demo", "newcomer");

        registrar.setPolicy("demo", ChannelPolicy.REGISTERED);

        assertProblem(() -> registry.admit(channelKey, "demo", "newcomer"), 403, "unregistered-device");
        registrar.put("demo", "newcomer", new DeviceRequest(null, null, null, null));
        registry.admit(channelKey, "demo", "newcomer");
    }

    @Test
    void shouldKeepBothSecretsDuringARotationsOverlapAndOnlyTheNewOneAfter() {
        registrar.put("demo", "s1", new DeviceRequest(null, null, null, "first-secret-0001"));

        var issued = registrar.issue("demo", "s1", new CredentialRequest(null, 600L));

        assertThat(issued.secret()).hasSizeGreaterThanOrEqualTo(43);
        assertThat(registry.find(CredentialStore.sha256("first-secret-0001"))).isNotNull();
        assertThat(registry.find(CredentialStore.sha256(issued.secret()))).isNotNull();
        clock.now = T0.plusSeconds(601);
        assertThat(registry.find(CredentialStore.sha256("first-secret-0001"))).isNull();
        assertThat(registry.find(CredentialStore.sha256(issued.secret()))).isNotNull();
    }

    @Test
    void shouldRefuseARevokedCredentialAtOnce() {
        registrar.put("demo", "s1", new DeviceRequest(null, null, null, "first-secret-0001"));
        var id = registry.device("demo", "s1").credentials().getFirst().id();

        registrar.revoke("demo", "s1", id);

        assertThat(registry.find(CredentialStore.sha256("first-secret-0001"))).isNull();
        assertProblem(() -> registrar.revoke("demo", "s1", id), 404, "unknown-credential");
    }

    @Test
    void shouldRefuseASecretAnotherCredentialHas() {
        registrar.put("demo", "s1", new DeviceRequest(null, null, null, "first-secret-0001"));

        assertProblem(
                () -> registrar.put("demo", "s2", new DeviceRequest(null, null, null, "first-secret-0001")),
                409,
                "credential-in-use");
        assertProblem(
                () -> registrar.put("demo", "s3", new DeviceRequest(null, null, null, "admin-secret-123456")),
                409,
                "credential-in-use");
    }

    @Test
    void shouldRefuseAChannelNothingNames() {
        assertProblem(
                () -> registrar.put("nowhere", "s1", new DeviceRequest(null, null, null, null)),
                404,
                "unknown-channel");
    }

    @Test
    void shouldApplyAnImportsValidLinesReportTheOthersAndChangeNothingOnARerun() throws Exception {
        var csv = """
                deviceId,deviceType,enabled,labels,secret
                s1,lht65,true,floor=3;room=12,first-secret-0001
                s2,,false,,
                bad id,lht65,true,,
                s3,lht65,maybe,,
                s4,,,,first-secret-0001
                """;

        var first = registrar.importDevices("demo", parse(csv));
        written.clear();
        var again = registrar.importDevices("demo", parse(csv));

        assertThat(first.created()).isEqualTo(2);
        assertThat(first.errors()).extracting(DeviceImport.LineError::line).containsExactly(4, 5, 6);
        assertThat(first.errors().get(2).detail()).contains("device 's1'");
        assertThat(registry.device("demo", "s1").labels()).containsEntry("room", "12");
        assertThat(registry.device("demo", "s2").enabled()).isFalse();
        assertThat(again.created()).isZero();
        assertThat(again.updated()).isZero();
        assertThat(again.unchanged()).isEqualTo(2);
        assertThat(written).isEmpty();
    }

    private DeviceImport.Parsed parse(String csv) throws Exception {
        return imports.parse(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)), DeviceImport.Format.CSV);
    }

    static void assertProblem(Runnable call, int status, String type) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ErrorResponseException.class, e -> {
            assertThat(e.getStatusCode().value()).isEqualTo(status);
            assertThat(e.getBody().getType().toString()).endsWith("/" + type);
        });
    }

    /** A clock a test moves. */
    static final class MutableClock extends Clock {

        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
