package dev.iotpipeline.ingest.registry;

import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.CredentialStore;
import dev.iotpipeline.web.security.SecurityProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * JMH benchmarks of the bearer check on ingest's hot path with a registry of {@code devices} devices, one credential
 * each: a device credential's secret found through the registry and its uplink admitted, against a channel key's.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DeviceRegistryJmh {

    @Param("1000000")
    public int devices;

    DeviceRegistry registry;
    CredentialStore credentials;
    /** Secrets and hashes of devices spread over the whole registry, so the lookups do not stay in the cache. */
    String[] secrets;

    byte[][] hashes;
    String[] sampledIds;
    int next;

    @Setup
    public void setUp() {
        registry = new DeviceRegistry(Clock.systemUTC());
        var now = Instant.parse("2026-11-27T00:00:00Z");
        int sample = Integer.highestOneBit(Math.min(devices, 65_536));
        int stride = devices / sample;
        secrets = new String[sample];
        hashes = new byte[sample][];
        sampledIds = new String[sample];
        for (int i = 0; i < devices; i++) {
            var secret = secret(i);
            if (i % stride == 0 && i / stride < sample) {
                secrets[i / stride] = secret;
                hashes[i / stride] = CredentialStore.sha256(secret);
                sampledIds[i / stride] = deviceId(i);
            }
            var device = new RegisteredDevice(
                    "demo",
                    deviceId(i),
                    RegisteredDevice.SCHEMA_VERSION,
                    "em300th",
                    Map.of(),
                    true,
                    List.of(Registrar.secret(secret, now)),
                    now);
            registry.apply(device.key(), device);
        }
        credentials = new CredentialStore(
                new SecurityProperties(
                        List.of("admin-token-for-the-benchmark"),
                        List.of(),
                        List.of(new SecurityProperties.DeviceKey("demo", "channel-key-for-the-benchmark", null)),
                        null,
                        Duration.ofSeconds(5)),
                registry);
    }

    static String secret(int i) {
        return "device-secret-" + i + "-of-the-benchmark-registry";
    }

    static String deviceId(int i) {
        return "sensor-" + i;
    }

    /** What every POST with a device credential costs before its body is read: hash, configured keys, the index. */
    @Benchmark
    public Credential deviceCredential() {
        int i = next++ & (secrets.length - 1);
        var credential =
                (Credential.Device) credentials.authenticate(secrets[i]).orElseThrow();
        registry.admit(credential, "demo", credential.deviceId());
        return credential;
    }

    /** The same for the channel key: the hash, the configured keys and the admission's registry lookup. */
    @Benchmark
    public Credential channelKey() {
        var credential = (Credential.Device)
                credentials.authenticate("channel-key-for-the-benchmark").orElseThrow();
        registry.admit(credential, "demo", sampledIds[next++ & (sampledIds.length - 1)]);
        return credential;
    }

    /** Only the lookup of a known hash in the index: the registry's share of {@link #deviceCredential}. */
    @Benchmark
    public Credential lookup() {
        return registry.find(hashes[next++ & (hashes.length - 1)]);
    }
}
