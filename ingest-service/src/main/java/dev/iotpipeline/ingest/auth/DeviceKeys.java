package dev.iotpipeline.ingest.auth;

import dev.iotpipeline.ingest.IngestProperties.ApiKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Device keys bound to channels. Only SHA-256 hashes are kept, every lookup compares against every entry
 * in constant time, and keys from the optional keys file are re-read when it changes.
 */
public final class DeviceKeys {

    static final String ANY_CHANNEL = "*";
    private static final String SHA256_PREFIX = "sha256:";
    private static final Logger log = LoggerFactory.getLogger(DeviceKeys.class);

    private record Entry(String channel, byte[] hash, Double ratePerSecond) {
    }

    /** An authenticated key: a short id (a hash prefix, safe to log), its channels (null = all) and rate. */
    public record Principal(String keyId, Set<String> channels, Double ratePerSecond) {

        public boolean allows(String channel) {
            return channels == null || channels.contains(channel);
        }
    }

    private final List<Entry> configured;
    private final Path keysFile;
    private volatile List<Entry> entries;
    private volatile FileTime loadedVersion;

    public DeviceKeys(List<ApiKey> keys, Path keysFile) {
        this.configured = keys.stream().map(k -> new Entry(k.channel(), hashOf(k.key()), k.ratePerSecond())).toList();
        this.keysFile = keysFile;
        this.entries = configured;
        reloadIfChanged();
    }

    public Optional<Principal> authenticate(String presentedKey) {
        if (presentedKey == null || presentedKey.isBlank()) {
            return Optional.empty();
        }
        byte[] presented = sha256(presentedKey);
        Set<String> channels = new HashSet<>();
        boolean all = false;
        Double rate = null;
        for (var entry : entries) {
            if (MessageDigest.isEqual(entry.hash(), presented)) {
                all |= ANY_CHANNEL.equals(entry.channel());
                channels.add(entry.channel());
                rate = entry.ratePerSecond() != null ? entry.ratePerSecond() : rate;
            }
        }
        if (channels.isEmpty()) {
            return Optional.empty();
        }
        var keyId = HexFormat.of().formatHex(presented, 0, 6);
        return Optional.of(new Principal(keyId, all ? null : Set.copyOf(channels), rate));
    }

    /** Re-reads the keys file when its modification time changed; a broken file keeps the previous keys. */
    public synchronized void reloadIfChanged() {
        if (keysFile == null) {
            return;
        }
        try {
            var version = Files.exists(keysFile) ? Files.getLastModifiedTime(keysFile) : null;
            if (version == null ? loadedVersion == null && entries == configured : version.equals(loadedVersion)) {
                return;
            }
            var loaded = new ArrayList<>(configured);
            if (version != null) {
                loaded.addAll(parse(Files.readAllLines(keysFile, StandardCharsets.UTF_8)));
            }
            entries = List.copyOf(loaded);
            loadedVersion = version;
            log.info("Loaded {} device keys ({} from {})", loaded.size(), loaded.size() - configured.size(), keysFile);
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            log.error("Keeping the previous device keys: {} is unreadable: {}", keysFile, e.getMessage());
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
            if (fields.length < 2 || fields.length > 3) {
                throw new IllegalArgumentException("line " + (i + 1) + ": expected '<channel> <key> [ratePerSecond]'");
            }
            parsed.add(new Entry(fields[0], hashOf(fields[1]), fields.length == 3 ? Double.valueOf(fields[2]) : null));
        }
        return parsed;
    }

    private static byte[] hashOf(String configured) {
        if (configured.startsWith(SHA256_PREFIX)) {
            return HexFormat.of().parseHex(configured.substring(SHA256_PREFIX.length()));
        }
        return sha256(configured);
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
