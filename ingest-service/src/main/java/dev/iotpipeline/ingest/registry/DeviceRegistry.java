package dev.iotpipeline.ingest.registry;

import dev.iotpipeline.events.ChannelPolicy;
import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.events.RegisteredDevice.Secret;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.CredentialLookup;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.springframework.http.HttpStatus;

/**
 * This instance's copy of the device registry and the channels' policies, as the compacted topics deliver them: the
 * credential index the bearer check looks a secret's hash up in, and the admission every uplink passes, whichever
 * credential sent it.
 */
public final class DeviceRegistry implements CredentialLookup {

    /**
     * One credential as this instance keeps it: the four longs of its hash (equality and hash code are theirs, so it
     * is its own key in the index) and its validity; a tenth of the strings the event holds it in.
     */
    static final class StoredSecret {

        final long a;
        final long b;
        final long c;
        final long d;
        final Instant createdAt;
        final Instant expiresAt;

        private StoredSecret(byte[] sha256, Instant createdAt, Instant expiresAt) {
            var buffer = ByteBuffer.wrap(sha256);
            this.a = buffer.getLong();
            this.b = buffer.getLong();
            this.c = buffer.getLong();
            this.d = buffer.getLong();
            this.createdAt = createdAt;
            this.expiresAt = expiresAt;
        }

        /** A key to look a presented secret's hash up with. */
        static StoredSecret probe(byte[] sha256) {
            return new StoredSecret(sha256, null, null);
        }

        static StoredSecret of(Secret secret) {
            return new StoredSecret(HexFormat.of().parseHex(secret.sha256()), secret.createdAt(), secret.expiresAt());
        }

        boolean validAt(Instant now) {
            return expiresAt == null || now.isBefore(expiresAt);
        }

        String hex() {
            var hex = HexFormat.of();
            return hex.toHexDigits(a) + hex.toHexDigits(b) + hex.toHexDigits(c) + hex.toHexDigits(d);
        }

        /** The credential's id: the first twelve hex digits of its hash, as {@link Registrar} names it. */
        String id() {
            return HexFormat.of().toHexDigits(a).substring(0, 12);
        }

        Secret secret() {
            return new Secret(id(), hex(), createdAt, expiresAt);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof StoredSecret s && a == s.a && b == s.b && c == s.c && d == s.d;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(a);
        }
    }

    /** One registered device as this instance keeps it; {@link #device()} gives the registration back. */
    record Entry(
            String channel,
            String deviceId,
            String deviceType,
            Map<String, String> labels,
            boolean enabled,
            StoredSecret[] credentials,
            Instant updatedAt) {

        RegisteredDevice device() {
            var secrets = new ArrayList<Secret>(credentials.length);
            for (var credential : credentials) {
                secrets.add(credential.secret());
            }
            return new RegisteredDevice(
                    channel,
                    deviceId,
                    RegisteredDevice.SCHEMA_VERSION,
                    deviceType,
                    labels,
                    enabled,
                    secrets,
                    updatedAt);
        }
    }

    private final Clock clock;
    private final Map<String, ChannelDevices> channels = new ConcurrentHashMap<>();
    private final Map<StoredSecret, Entry> byCredential = new ConcurrentHashMap<>();
    private final Map<String, ChannelPolicy> policies = new ConcurrentHashMap<>();
    /** One copy of each channel and device-type name, as a million devices repeat a few of them. */
    private final Map<String, String> names = new ConcurrentHashMap<>();

    public DeviceRegistry(Clock clock) {
        this.clock = clock;
    }

    /** Applies a change of the devices topic: a registration, or a deletion ({@code device == null}). */
    public synchronized void apply(String key, RegisteredDevice device) {
        int slash = key.indexOf('/');
        if (slash < 0) {
            return;
        }
        var channel = key.substring(0, slash);
        var deviceId = key.substring(slash + 1);
        var devices = device == null
                ? channels.get(channel)
                : channels.computeIfAbsent(name(channel), c -> new ChannelDevices());
        if (devices == null) {
            return;
        }
        var stored = device == null ? null : compact(device);
        var previous = stored == null ? devices.remove(deviceId) : devices.put(stored.deviceId(), stored);
        if (previous != null) {
            for (var secret : previous.credentials()) {
                byCredential.remove(secret, previous);
            }
        }
        if (stored != null) {
            for (var secret : stored.credentials()) {
                byCredential.put(secret, stored);
            }
        }
    }

    /** Applies a change of the channel-policies topic ({@code policy == null}: the channel is open again). */
    public void applyPolicy(String channel, ChannelPolicy policy) {
        if (policy == null) {
            policies.remove(channel);
        } else {
            policies.put(channel, policy);
        }
    }

    /** A registered device's credential, while it is valid; null for any other hash. */
    @Override
    public Credential find(byte[] sha256) {
        var probe = StoredSecret.probe(sha256);
        var device = byCredential.get(probe);
        if (device == null) {
            return null;
        }
        var now = clock.instant();
        for (var secret : device.credentials()) {
            if (secret.equals(probe)) {
                return secret.validAt(now)
                        ? new Credential.Device(secret.id(), Set.of(device.channel()), null, device.deviceId())
                        : null;
            }
        }
        return null;
    }

    /**
     * Refuses an uplink its sender may not send, with the problem that says why: a device credential posting as
     * another device, a disabled device, or a device the channel does not know when the channel takes registered
     * devices only.
     */
    public void admit(Credential.Device sender, String channel, String deviceId) {
        if (sender.deviceId() != null && !sender.deviceId().equals(deviceId)) {
            throw Problems.of(
                    HttpStatus.FORBIDDEN,
                    "wrong-device",
                    "This credential belongs to device '" + sender.deviceId() + "'; it may not send as '" + deviceId
                            + "'",
                    Map.of("deviceId", deviceId));
        }
        var devices = channels.get(channel);
        var device = devices == null ? null : devices.get(deviceId);
        if (device == null) {
            var policy = policies.get(channel);
            if (policy != null && policy.registeredOnly()) {
                throw Problems.of(
                        HttpStatus.FORBIDDEN,
                        "unregistered-device",
                        "Channel '" + channel + "' accepts registered devices only, and '" + deviceId + "' is not one",
                        Map.of("deviceId", deviceId));
            }
            return;
        }
        if (!device.enabled()) {
            throw Problems.of(
                    HttpStatus.FORBIDDEN,
                    "device-disabled",
                    "Device '" + deviceId + "' of channel '" + channel + "' is disabled",
                    Map.of("deviceId", deviceId));
        }
    }

    public RegisteredDevice device(String channel, String deviceId) {
        var devices = channels.get(channel);
        var entry = devices == null ? null : devices.get(deviceId);
        return entry == null ? null : entry.device();
    }

    /** Up to {@code limit} of a channel's devices in device-id order, after {@code after} when it is not null. */
    public List<RegisteredDevice> page(String channel, String after, int limit) {
        var devices = channels.get(channel);
        if (devices == null) {
            return List.of();
        }
        var view = after == null ? devices.inOrder : devices.inOrder.tailMap(after, false);
        var page = new ArrayList<RegisteredDevice>(Math.min(limit, 1024));
        for (var entry : view.values()) {
            if (page.size() == limit) {
                break;
            }
            page.add(entry.device());
        }
        return page;
    }

    public int count(String channel) {
        var devices = channels.get(channel);
        return devices == null ? 0 : devices.size();
    }

    public int size() {
        return channels.values().stream().mapToInt(ChannelDevices::size).sum();
    }

    public ChannelPolicy policy(String channel) {
        return policies.get(channel);
    }

    /** Whether the registry names {@code channel}: a device of it, or a policy for it. */
    public boolean knows(String channel) {
        var devices = channels.get(channel);
        return devices != null && devices.size() > 0 || policies.containsKey(channel);
    }

    /** The entry of a registration, with the names many devices repeat (channel, type, label keys) kept once. */
    private Entry compact(RegisteredDevice device) {
        var labels = device.labels();
        if (!labels.isEmpty()) {
            var named = new HashMap<String, String>(labels.size() * 2);
            labels.forEach((key, value) -> named.put(name(key), value));
            labels = Map.copyOf(named);
        }
        var credentials = new StoredSecret[device.credentials().size()];
        for (int i = 0; i < credentials.length; i++) {
            credentials[i] = StoredSecret.of(device.credentials().get(i));
        }
        return new Entry(
                name(device.channel()),
                device.deviceId(),
                device.deviceType() == null ? null : name(device.deviceType()),
                labels,
                device.enabled(),
                credentials,
                device.updatedAt());
    }

    private String name(String name) {
        return names.computeIfAbsent(name, n -> n);
    }

    /**
     * A channel's devices twice: by id in a hash map, for the lookup every uplink makes, and in id order, for the
     * pages of the registry API. Changed only under the registry's lock.
     */
    private static final class ChannelDevices {

        final Map<String, Entry> byId = new ConcurrentHashMap<>();
        final NavigableMap<String, Entry> inOrder = new ConcurrentSkipListMap<>();

        Entry get(String deviceId) {
            return byId.get(deviceId);
        }

        Entry put(String deviceId, Entry entry) {
            inOrder.put(deviceId, entry);
            return byId.put(deviceId, entry);
        }

        Entry remove(String deviceId) {
            inOrder.remove(deviceId);
            return byId.remove(deviceId);
        }

        int size() {
            return byId.size();
        }
    }
}
