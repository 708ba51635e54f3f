package dev.iotpipeline.ingest.registry;

import dev.iotpipeline.events.ChannelPolicy;
import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.CredentialLookup;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
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

    /** A credential's hash as a map key: four longs instead of a 64-digit string. */
    record HashKey(long a, long b, long c, long d) {

        static HashKey of(byte[] sha256) {
            var buffer = ByteBuffer.wrap(sha256);
            return new HashKey(buffer.getLong(), buffer.getLong(), buffer.getLong(), buffer.getLong());
        }

        static HashKey ofHex(String sha256) {
            return of(HexFormat.of().parseHex(sha256));
        }
    }

    private final Clock clock;
    private final Map<String, NavigableMap<String, RegisteredDevice>> channels = new ConcurrentHashMap<>();
    private final Map<HashKey, RegisteredDevice> byCredential = new ConcurrentHashMap<>();
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
        var devices =
                device == null ? channels.get(channel) : channels.computeIfAbsent(name(channel), c -> newChannel());
        if (devices == null) {
            return;
        }
        var stored = device == null ? null : compact(device);
        var previous = stored == null ? devices.remove(deviceId) : devices.put(stored.deviceId(), stored);
        if (previous != null) {
            previous.credentials().forEach(secret -> byCredential.remove(HashKey.ofHex(secret.sha256()), previous));
        }
        if (stored != null) {
            stored.credentials().forEach(secret -> byCredential.put(HashKey.ofHex(secret.sha256()), stored));
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
        var device = byCredential.get(HashKey.of(sha256));
        if (device == null) {
            return null;
        }
        var now = clock.instant();
        var hex = HexFormat.of().formatHex(sha256);
        for (var secret : device.credentials()) {
            if (secret.sha256().equals(hex)) {
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
        return devices == null ? null : devices.get(deviceId);
    }

    /** Up to {@code limit} of a channel's devices in device-id order, after {@code after} when it is not null. */
    public List<RegisteredDevice> page(String channel, String after, int limit) {
        var devices = channels.get(channel);
        if (devices == null) {
            return List.of();
        }
        var view = after == null ? devices : devices.tailMap(after, false);
        var page = new ArrayList<RegisteredDevice>(Math.min(limit, 1024));
        for (var device : view.values()) {
            if (page.size() == limit) {
                break;
            }
            page.add(device);
        }
        return page;
    }

    public int count(String channel) {
        var devices = channels.get(channel);
        return devices == null ? 0 : devices.size();
    }

    public int size() {
        return channels.values().stream().mapToInt(Map::size).sum();
    }

    public ChannelPolicy policy(String channel) {
        return policies.get(channel);
    }

    /** Whether the registry names {@code channel}: a device of it, or a policy for it. */
    public boolean knows(String channel) {
        var devices = channels.get(channel);
        return devices != null && !devices.isEmpty() || policies.containsKey(channel);
    }

    private RegisteredDevice compact(RegisteredDevice device) {
        return new RegisteredDevice(
                name(device.channel()),
                device.deviceId(),
                device.schemaVersion(),
                device.deviceType() == null ? null : name(device.deviceType()),
                device.labels(),
                device.enabled(),
                device.credentials(),
                device.updatedAt());
    }

    private String name(String name) {
        return names.computeIfAbsent(name, n -> n);
    }

    private static NavigableMap<String, RegisteredDevice> newChannel() {
        return new ConcurrentSkipListMap<>();
    }
}
