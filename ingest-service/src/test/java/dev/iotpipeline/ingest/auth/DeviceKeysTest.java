package dev.iotpipeline.ingest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.ingest.IngestProperties.ApiKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceKeysTest {

    private final DeviceKeys keys = new DeviceKeys(List.of(
            new ApiKey("irrigation", "irrigation-secret", null),
            new ApiKey("irrigation", "irrigation-secret-2", 5.0),
            new ApiKey("greenhouse", "sha256:" + HexFormat.of().formatHex(DeviceKeys.sha256("greenhouse-secret")), null),
            new ApiKey("*", "admin-secret", null)), null);

    @Test
    void shouldBindAKeyToItsChannelOnly() {
        var principal = keys.authenticate("irrigation-secret").orElseThrow();

        assertThat(principal.allows("irrigation")).isTrue();
        assertThat(principal.allows("greenhouse")).isFalse();
    }

    @Test
    void shouldAcceptSeveralKeysPerChannelAndHashedKeys() {
        assertThat(keys.authenticate("irrigation-secret-2")).hasValueSatisfying(p -> {
            assertThat(p.allows("irrigation")).isTrue();
            assertThat(p.ratePerSecond()).isEqualTo(5.0);
        });
        assertThat(keys.authenticate("greenhouse-secret")).hasValueSatisfying(p -> assertThat(p.allows("greenhouse")).isTrue());
    }

    @Test
    void shouldGiveTheWildcardKeyEveryChannel() {
        assertThat(keys.authenticate("admin-secret")).hasValueSatisfying(p -> assertThat(p.allows("anything")).isTrue());
    }

    @Test
    void shouldRejectUnknownAndBlankKeys() {
        assertThat(keys.authenticate("wrong")).isEmpty();
        assertThat(keys.authenticate(" ")).isEmpty();
        assertThat(keys.authenticate(null)).isEmpty();
    }

    @Test
    void shouldNeverExposeTheKeyInItsId() {
        var principal = keys.authenticate("irrigation-secret").orElseThrow();

        assertThat(principal.keyId()).hasSize(12).doesNotContain("secret");
    }

    @Test
    void shouldRotateKeysFromTheKeysFileWithoutRestart(@TempDir Path dir) throws Exception {
        // given a keys file with one key
        var file = dir.resolve("device-keys");
        Files.writeString(file, "# channel key [ratePerSecond]\nfield old-key\n");
        var rotating = new DeviceKeys(List.of(), file);
        assertThat(rotating.authenticate("old-key")).isPresent();

        // when the file is rewritten with a new key
        Files.writeString(file, "field new-key 10\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        rotating.reloadIfChanged();

        // then the new key works and the old one no longer does
        assertThat(rotating.authenticate("new-key")).hasValueSatisfying(p -> assertThat(p.ratePerSecond()).isEqualTo(10.0));
        assertThat(rotating.authenticate("old-key")).isEmpty();
    }

    @Test
    void shouldKeepThePreviousKeysWhenTheFileIsBroken(@TempDir Path dir) throws Exception {
        var file = dir.resolve("device-keys");
        Files.writeString(file, "field good-key\n");
        var rotating = new DeviceKeys(List.of(), file);

        Files.writeString(file, "just-one-field\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        rotating.reloadIfChanged();

        assertThat(rotating.authenticate("good-key")).isPresent();
    }
}
