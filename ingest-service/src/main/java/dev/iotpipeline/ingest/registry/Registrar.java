package dev.iotpipeline.ingest.registry;

import dev.iotpipeline.events.ChannelPolicy;
import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.events.RegisteredDevice.Secret;
import dev.iotpipeline.ingest.registry.DeviceRequests.CredentialRequest;
import dev.iotpipeline.ingest.registry.DeviceRequests.DeviceRequest;
import dev.iotpipeline.kafka.topic.CompactedRegistry;
import dev.iotpipeline.kafka.topic.CompactedRegistry.Change;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.CredentialStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;

/**
 * The registry's changes: each one read against this instance's copy, written to the compacted topic and applied
 * here once Kafka has it, so the next request to this instance sees it (other instances within their tail's lag).
 * Changes are serialized within an instance; between instances the last write of a device wins.
 */
final class Registrar {

    /** A write: the device as stored, and whether it was new. */
    record Written(RegisteredDevice device, boolean created) {}

    /** A new credential: its id, and its secret when the registry generated it (shown this once). */
    record Issued(String id, String secret, RegisteredDevice device) {}

    /** The outcome of an import: per-line errors (line numbers from 1) and how many devices each way. */
    record ImportReport(int lines, int created, int updated, int unchanged, List<DeviceImport.LineError> errors) {}

    /** Changes of an import in flight at once: about a megabyte of the producer's buffer. */
    static final int IMPORT_CHUNK = 4096;

    private final DeviceRegistry registry;
    private final CompactedRegistry<RegisteredDevice> devices;
    private final CompactedRegistry<ChannelPolicy> policies;
    private final CompactedRegistry.Sender kafka;
    private final CredentialStore configured;
    private final Clock clock;
    private final Duration defaultOverlap;
    private final Duration writeTimeout;
    private final Duration importTimeout;
    private final SecureRandom random = new SecureRandom();

    Registrar(
            DeviceRegistry registry,
            CompactedRegistry<RegisteredDevice> devices,
            CompactedRegistry<ChannelPolicy> policies,
            CompactedRegistry.Sender kafka,
            CredentialStore configured,
            Clock clock,
            Duration defaultOverlap,
            Duration writeTimeout,
            Duration importTimeout) {
        this.registry = registry;
        this.devices = devices;
        this.policies = policies;
        this.kafka = kafka;
        this.configured = configured;
        this.clock = clock;
        this.defaultOverlap = defaultOverlap;
        this.writeTimeout = writeTimeout;
        this.importTimeout = importTimeout;
    }

    /** Creates or replaces a device; its credentials stay, and a secret in the request becomes its first one. */
    synchronized Written put(String channel, String deviceId, DeviceRequest request) {
        requireKnownChannel(channel);
        var existing = registry.device(channel, deviceId);
        var now = clock.instant();
        var credentials = existing == null ? List.<Secret>of() : existing.credentials();
        if (request.secret() != null) {
            var secret = secret(request.secret(), now);
            boolean held = credentials.stream().anyMatch(c -> c.sha256().equals(secret.sha256()));
            if (!held && !credentials.isEmpty()) {
                throw Problems.of(
                        HttpStatus.CONFLICT,
                        "device-has-credentials",
                        "Device '" + deviceId + "' has credentials already; issue another with POST /registry/"
                                + channel + "/devices/" + deviceId + "/credentials");
            }
            if (!held) {
                requireUnused(secret.sha256(), channel, deviceId);
                credentials = List.of(secret);
            }
        }
        var device = device(channel, deviceId, request, credentials, now);
        write(device.key(), device);
        return new Written(device, existing == null);
    }

    synchronized void delete(String channel, String deviceId) {
        requireDevice(channel, deviceId);
        write(RegisteredDevice.key(channel, deviceId), null);
    }

    /**
     * Adds a credential to a device; its other valid credentials keep working for the overlap and then stop, so a
     * device can be moved to its new secret without a moment in which neither works.
     */
    synchronized Issued issue(String channel, String deviceId, CredentialRequest request) {
        var existing = requireDevice(channel, deviceId);
        var now = clock.instant();
        var generated = request.secret() == null ? generate() : null;
        var secret = secret(generated != null ? generated : request.secret(), now);
        requireUnused(secret.sha256(), null, null);
        var overlap = request.overlapSeconds() == null ? defaultOverlap : Duration.ofSeconds(request.overlapSeconds());
        var end = now.plus(overlap);
        var credentials = new ArrayList<Secret>();
        for (var old : existing.credentials()) {
            if (old.validAt(now)) {
                var expires = old.expiresAt() == null || old.expiresAt().isAfter(end) ? end : old.expiresAt();
                credentials.add(new Secret(old.id(), old.sha256(), old.createdAt(), expires));
            }
        }
        credentials.add(secret);
        var device = withCredentials(existing, credentials, now);
        write(device.key(), device);
        return new Issued(secret.id(), generated, device);
    }

    /** Removes one credential: from the moment this returns, this instance refuses it (the others within a second). */
    synchronized RegisteredDevice revoke(String channel, String deviceId, String credentialId) {
        var existing = requireDevice(channel, deviceId);
        var kept = existing.credentials().stream()
                .filter(c -> !c.id().equals(credentialId))
                .toList();
        if (kept.size() == existing.credentials().size()) {
            throw Problems.of(
                    HttpStatus.NOT_FOUND,
                    "unknown-credential",
                    "Device '" + deviceId + "' has no credential '" + credentialId + "'");
        }
        var device = withCredentials(existing, kept, clock.instant());
        write(device.key(), device);
        return device;
    }

    synchronized ChannelPolicy setPolicy(String channel, String unknownDevices) {
        var policy = new ChannelPolicy(channel, ChannelPolicy.SCHEMA_VERSION, unknownDevices, clock.instant());
        awaited(() -> policies.write(kafka, channel, policy, writeTimeout));
        return policy;
    }

    /**
     * Applies an import's valid lines, written in chunks, and reports the others by line. A line that changes nothing is
     * not written again, so a re-run of the same import changes nothing; a line's secret is added to its device
     * unless the device holds it already.
     */
    synchronized ImportReport importDevices(String channel, DeviceImport.Parsed parsed) {
        requireKnownChannel(channel);
        var now = clock.instant();
        var errors = new ArrayList<>(parsed.errors());
        var changes = new ArrayList<Change<RegisteredDevice>>();
        var claimed = new HashMap<String, String>();
        int created = 0;
        int updated = 0;
        int unchanged = 0;
        for (var line : parsed.lines()) {
            var request = line.request();
            var existing = registry.device(channel, line.deviceId());
            var credentials = existing == null ? List.<Secret>of() : existing.credentials();
            if (request.secret() != null) {
                var secret = secret(request.secret(), now);
                if (credentials.stream().noneMatch(c -> c.sha256().equals(secret.sha256()))) {
                    var owner = claimed.get(secret.sha256());
                    var unused = owner != null ? null : unusedProblem(secret.sha256(), channel, line.deviceId());
                    if (owner != null || unused != null) {
                        errors.add(new DeviceImport.LineError(
                                line.number(),
                                owner != null
                                        ? "its secret is also the secret of device '" + owner
                                                + "' earlier in this import"
                                        : "the secret " + unused));
                        continue;
                    }
                    claimed.put(secret.sha256(), line.deviceId());
                    credentials = append(credentials, secret);
                }
            }
            var device = device(channel, line.deviceId(), request, credentials, now);
            if (existing != null && same(existing, device)) {
                unchanged++;
                continue;
            }
            changes.add(new Change<>(device.key(), device));
            if (existing == null) {
                created++;
            } else {
                updated++;
            }
        }
        int applied = 0;
        try {
            // In chunks, each acknowledged before the next is sent: the producer is the one the uplinks go through,
            // and a whole import in its buffer would make their sends wait for space.
            long deadline = System.nanoTime() + importTimeout.toNanos();
            for (int from = 0; from < changes.size(); from += IMPORT_CHUNK) {
                var chunk = changes.subList(from, Math.min(changes.size(), from + IMPORT_CHUNK));
                devices.writeAll(kafka, chunk, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                applied = from + chunk.size();
            }
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            var problem = Problems.of(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "kafka-unavailable",
                    "Kafka did not take the import's changes (" + e.getClass().getSimpleName() + ") after "
                            + applied + " of " + changes.size() + " were written; run the same import again: what"
                            + " was written is skipped as unchanged",
                    Map.of("written", applied, "changes", changes.size()));
            problem.getHeaders().set("Retry-After", "2");
            throw problem;
        }
        errors.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return new ImportReport(parsed.lineCount(), created, updated, unchanged, errors);
    }

    RegisteredDevice requireDevice(String channel, String deviceId) {
        var device = registry.device(channel, deviceId);
        if (device == null) {
            throw Problems.of(
                    HttpStatus.NOT_FOUND,
                    "unknown-device",
                    "Channel '" + channel + "' has no registered device '" + deviceId + "'");
        }
        return device;
    }

    /**
     * A channel the pipeline knows: a configured device key or dashboard token names it (or every channel), or the
     * registry holds a device or policy of it; so a typo in an import path is a 404, not a new channel.
     */
    void requireKnownChannel(String channel) {
        if (!registry.knows(channel) && !configured.names(channel)) {
            throw Problems.of(
                    HttpStatus.NOT_FOUND,
                    "unknown-channel",
                    "No device key, dashboard token or policy names channel '" + channel + "'; PUT /registry/" + channel
                            + "/policy to start one");
        }
    }

    private void write(String key, RegisteredDevice device) {
        awaited(() -> devices.write(kafka, key, device, writeTimeout));
    }

    /** A registry write that waits for Kafka. */
    @FunctionalInterface
    private interface Write {
        void run() throws InterruptedException, ExecutionException, TimeoutException;
    }

    /** Runs a write, answering 503 when Kafka did not take it in time. */
    private static void awaited(Write write) {
        try {
            write.run();
        } catch (ExecutionException | TimeoutException e) {
            throw unavailable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(e);
        }
    }

    private void requireUnused(String sha256, String channel, String deviceId) {
        var problem = unusedProblem(sha256, channel, deviceId);
        if (problem != null) {
            throw Problems.of(HttpStatus.CONFLICT, "credential-in-use", "The secret " + problem);
        }
    }

    /** Why a secret cannot be a device's credential (another credential has it), or null when it can. */
    private String unusedProblem(String sha256, String channel, String deviceId) {
        var hash = HexFormat.of().parseHex(sha256);
        if (configured.isConfigured(hash)) {
            return "is a configured credential's; choose another";
        }
        var holder = registry.find(hash);
        if (holder instanceof Credential.Device owner
                && !(Objects.equals(owner.deviceId(), deviceId)
                        && owner.channels().contains(channel))) {
            return "is another device's credential; choose another";
        }
        return null;
    }

    private RegisteredDevice device(
            String channel, String deviceId, DeviceRequest request, List<Secret> credentials, Instant now) {
        return new RegisteredDevice(
                channel,
                deviceId,
                RegisteredDevice.SCHEMA_VERSION,
                request.deviceType(),
                request.labels(),
                request.enabled() == null || request.enabled(),
                credentials,
                now);
    }

    private static RegisteredDevice withCredentials(RegisteredDevice device, List<Secret> credentials, Instant now) {
        return new RegisteredDevice(
                device.channel(),
                device.deviceId(),
                RegisteredDevice.SCHEMA_VERSION,
                device.deviceType(),
                device.labels(),
                device.enabled(),
                credentials,
                now);
    }

    /** Equal but for when it was written. */
    private static boolean same(RegisteredDevice a, RegisteredDevice b) {
        return Objects.equals(a.deviceType(), b.deviceType())
                && a.labels().equals(b.labels())
                && a.enabled() == b.enabled()
                && a.credentials().equals(b.credentials());
    }

    private static List<Secret> append(List<Secret> credentials, Secret secret) {
        var all = new ArrayList<>(credentials);
        all.add(secret);
        return all;
    }

    /** A credential from a secret the operator supplied or the registry generated, or the hash of one. */
    static Secret secret(String secret, Instant now) {
        var hex = secret.startsWith(DeviceRequests.SHA256_PREFIX)
                ? secret.substring(DeviceRequests.SHA256_PREFIX.length()).toLowerCase(Locale.ROOT)
                : HexFormat.of().formatHex(CredentialStore.sha256(secret));
        return new Secret(hex.substring(0, 12), hex, now, null);
    }

    /** 32 random bytes, URL-safe: nothing to guess, nothing to escape in a header. */
    private String generate() {
        var bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static RuntimeException unavailable(Exception cause) {
        var problem = Problems.of(
                HttpStatus.SERVICE_UNAVAILABLE,
                "kafka-unavailable",
                "The registry change could not be written to Kafka: "
                        + cause.getClass().getSimpleName());
        problem.getHeaders().set("Retry-After", "2");
        return problem;
    }
}
