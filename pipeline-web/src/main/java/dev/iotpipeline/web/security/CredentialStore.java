package dev.iotpipeline.web.security;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.web.security.Credential.Role;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every credential a service accepts. Only SHA-256 hashes are kept, a lookup compares the presented secret
 * against every entry in constant time, and entries from the credentials file are re-read when it changes.
 */
public final class CredentialStore {

    static final String ANY_CHANNEL = "*";
    private static final String SHA256_PREFIX = "sha256:";
    private static final Logger log = LoggerFactory.getLogger(CredentialStore.class);

    private record Entry(Role role, byte[] hash, Set<String> channels, Double ratePerSecond) {}

    private final List<Entry> configured;
    private final CredentialLookup lookup;
    private final Path file;
    private volatile List<Entry> entries;
    private volatile FileTime loadedVersion;

    public CredentialStore(SecurityProperties properties) {
        this(properties, null);
    }

    /** With {@code lookup} (may be null) asked for a secret none of the configured credentials matches. */
    public CredentialStore(SecurityProperties properties, CredentialLookup lookup) {
        this.lookup = lookup;
        var entries = new ArrayList<Entry>();
        properties.adminTokens().forEach(t -> entries.add(new Entry(Role.ADMIN, hashOf(t), null, null)));
        properties
                .dashboardTokens()
                .forEach(
                        t -> entries.add(new Entry(Role.DASHBOARD, hashOf(t.token()), Set.copyOf(t.channels()), null)));
        properties
                .deviceKeys()
                .forEach(k ->
                        entries.add(new Entry(Role.DEVICE, hashOf(k.key()), Set.of(k.channel()), k.ratePerSecond())));
        requireOneRolePerSecret(entries, "configuration");
        this.configured = List.copyOf(entries);
        this.entries = configured;
        this.file = properties.credentialsFile();
        reloadIfChanged();
    }

    /** The credential a secret stands for, or empty when no entry matches it. */
    public Optional<Credential> authenticate(String secret) {
        if (secret == null || secret.isBlank()) {
            return Optional.empty();
        }
        byte[] presented = sha256(secret);
        Role role = null;
        Set<String> channels = new HashSet<>();
        boolean everyChannel = false;
        Double rate = null;
        // No early exit: the time taken must not tell how many entries a guess got past.
        for (var entry : entries) {
            if (MessageDigest.isEqual(entry.hash(), presented)) {
                role = entry.role();
                if (entry.channels() != null) {
                    everyChannel |= entry.channels().contains(ANY_CHANNEL);
                    channels.addAll(entry.channels());
                }
                rate = entry.ratePerSecond() != null ? entry.ratePerSecond() : rate;
            }
        }
        if (role == null) {
            return lookup == null ? Optional.empty() : Optional.ofNullable(lookup.find(presented));
        }
        var id = HexFormat.of().formatHex(presented, 0, 6);
        var scope = everyChannel ? null : Set.copyOf(channels);
        return Optional.of(
                switch (role) {
                    case ADMIN -> new Credential.Admin(id);
                    case DASHBOARD -> new Credential.Dashboard(id, scope);
                    case DEVICE -> new Credential.Device(id, scope, rate);
                });
    }

    /** Whether a configured credential (not the lookup's) has the secret that hashes to {@code sha256}. */
    public boolean isConfigured(byte[] sha256) {
        boolean found = false;
        for (var entry : entries) {
            found |= MessageDigest.isEqual(entry.hash(), sha256);
        }
        return found;
    }

    /** Whether a configured device key or dashboard token names {@code channel}, or every channel ({@code *}). */
    public boolean names(String channel) {
        for (var entry : entries) {
            if (entry.channels() != null
                    && (entry.channels().contains(channel) || entry.channels().contains(ANY_CHANNEL))) {
                return true;
            }
        }
        return false;
    }

    /** How many credentials of each role are known, for the startup log (never the secrets). */
    public String summary() {
        var counts = new StringBuilder();
        for (var role : EnumSet.allOf(Role.class)) {
            long n = entries.stream().filter(e -> e.role() == role).count();
            counts.append(counts.isEmpty() ? "" : ", ")
                    .append(n)
                    .append(' ')
                    .append(role.label())
                    .append(n == 1 ? "" : "s");
        }
        return counts.toString();
    }

    /** Re-reads the credentials file when its modification time changed; a broken file keeps the previous set. */
    public synchronized void reloadIfChanged() {
        if (file == null) {
            return;
        }
        try {
            var version = Files.exists(file) ? Files.getLastModifiedTime(file) : null;
            if (version == null ? loadedVersion == null && entries == configured : version.equals(loadedVersion)) {
                return;
            }
            var loaded = new ArrayList<>(configured);
            if (version != null) {
                loaded.addAll(parse(Files.readAllLines(file, StandardCharsets.UTF_8)));
            }
            requireOneRolePerSecret(loaded, file.toString());
            entries = List.copyOf(loaded);
            loadedVersion = version;
            log.info("Loaded credentials: {} ({} from {})", summary(), loaded.size() - configured.size(), file);
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            log.error("Keeping the previous credentials: {} is unusable: {}", file, e.getMessage());
        }
    }

    private static List<Entry> parse(List<String> lines) {
        var parsed = new ArrayList<Entry>();
        for (int i = 0; i < lines.size(); i++) {
            var line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            var fields = line.split("\\s+");
            var where = "line " + (i + 1) + ": ";
            switch (fields[0]) {
                case "admin" -> {
                    expect(fields.length == 2, where + "expected 'admin <secret>'");
                    parsed.add(new Entry(Role.ADMIN, hashOf(fields[1]), null, null));
                }
                case "dashboard" -> {
                    expect(fields.length == 3, where + "expected 'dashboard <channel,...> <secret>'");
                    parsed.add(new Entry(Role.DASHBOARD, hashOf(fields[2]), Set.of(fields[1].split(",")), null));
                }
                case "device" -> {
                    expect(
                            fields.length == 3 || fields.length == 4,
                            where + "expected 'device <channel> <secret> [ratePerSecond]'");
                    Double rate = null;
                    if (fields.length == 4) {
                        try {
                            rate = Double.valueOf(fields[3]);
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException(where + "ratePerSecond is not a number");
                        }
                        expect(rate > 0, where + "ratePerSecond must be positive");
                    }
                    parsed.add(new Entry(Role.DEVICE, hashOf(fields[2]), Set.of(fields[1]), rate));
                }
                default -> throw new IllegalArgumentException(where + "expected a role: admin, dashboard or device");
            }
        }
        return parsed;
    }

    /** One secret with two roles would make every request it sends ambiguous; refuse it instead. */
    private static void requireOneRolePerSecret(List<Entry> entries, String source) {
        for (int i = 0; i < entries.size(); i++) {
            for (int j = i + 1; j < entries.size(); j++) {
                if (entries.get(i).role() != entries.get(j).role()
                        && Arrays.equals(entries.get(i).hash(), entries.get(j).hash())) {
                    throw new IllegalArgumentException("one secret is configured as both "
                            + entries.get(i).role().label() + " and "
                            + entries.get(j).role().label() + " in " + source);
                }
            }
        }
    }

    private static void expect(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    private static byte[] hashOf(String configured) {
        if (configured.startsWith(SHA256_PREFIX)) {
            var hex = configured.substring(SHA256_PREFIX.length());
            if (hex.length() != 64) {
                throw new IllegalArgumentException("a sha256: secret needs 64 hex digits");
            }
            return HexFormat.of().parseHex(hex);
        }
        return sha256(configured);
    }

    /** The SHA-256 of a secret, as credentials are kept and looked up. */
    public static byte[] sha256(String text) {
        return Ids.sha256().digest(text.getBytes(StandardCharsets.UTF_8));
    }
}
