package dev.iotpipeline.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.web.security.SecurityProperties.DashboardToken;
import dev.iotpipeline.web.security.SecurityProperties.DeviceKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialStoreTest {

    private final CredentialStore store = new CredentialStore(properties(
            List.of("sha256:" + HexFormat.of().formatHex(CredentialStore.sha256("admin-secret"))),
            List.of(
                    new DashboardToken("dash-secret", List.of("greenhouse", "irrigation")),
                    new DashboardToken("all-dash", List.of("*"))),
            List.of(
                    new DeviceKey("irrigation", "irrigation-secret", null),
                    new DeviceKey("irrigation", "irrigation-secret-2", 5.0),
                    new DeviceKey("*", "any-device", null)),
            null));

    @Test
    void eachSecretBecomesTheCredentialOfItsRole() {
        assertThat(store.authenticate("admin-secret")).containsInstanceOf(Credential.Admin.class);
        assertThat(store.authenticate("dash-secret")).containsInstanceOf(Credential.Dashboard.class);
        assertThat(store.authenticate("irrigation-secret")).containsInstanceOf(Credential.Device.class);
    }

    @Test
    void aSecretNoConfiguredCredentialHasIsAskedOfTheLookupWhichTheConfiguredOnesPrecede() {
        var registered = new Credential.Device("reg", Set.of("irrigation"), null, "sensor-1");
        var withLookup = new CredentialStore(
                properties(List.of("admin-secret"), List.of(), List.of(), null),
                hash -> Arrays.equals(hash, CredentialStore.sha256("device-own-secret")) ? registered : null);

        assertThat(withLookup.authenticate("device-own-secret")).contains(registered);
        assertThat(withLookup.authenticate("admin-secret")).containsInstanceOf(Credential.Admin.class);
        assertThat(withLookup.authenticate("unknown")).isEmpty();
        assertThat(withLookup.isConfigured(CredentialStore.sha256("admin-secret")))
                .isTrue();
        assertThat(withLookup.isConfigured(CredentialStore.sha256("device-own-secret")))
                .isFalse();
    }

    @Test
    void aChannelIsNamedByAKeyOrTokenOfItOrByOneOfEveryChannel() {
        var bound = new CredentialStore(properties(
                List.of(), List.of(), List.of(new DeviceKey("irrigation", "irrigation-secret", null)), null));

        assertThat(bound.names("irrigation")).isTrue();
        assertThat(bound.names("greenhouse")).isFalse();
        assertThat(store.names("greenhouse")).isTrue();
    }

    @Test
    void aCredentialIsBoundToItsChannelsAndTheWildcardMeansEveryChannel() {
        var device = store.authenticate("irrigation-secret").orElseThrow();
        var dashboard = store.authenticate("dash-secret").orElseThrow();

        assertThat(device.allows("irrigation")).isTrue();
        assertThat(device.allows("greenhouse")).isFalse();
        assertThat(dashboard.allows("greenhouse")).isTrue();
        assertThat(dashboard.allows("other")).isFalse();
        assertThat(store.authenticate("any-device").orElseThrow().allows("anything"))
                .isTrue();
        assertThat(store.authenticate("all-dash").orElseThrow().channels()).isNull();
        assertThat(store.authenticate("admin-secret").orElseThrow().allows("anything"))
                .isTrue();
    }

    @Test
    void aDeviceKeyCarriesItsOwnRateLimit() {
        assertThat(store.authenticate("irrigation-secret-2").orElseThrow())
                .isInstanceOfSatisfying(
                        Credential.Device.class,
                        d -> assertThat(d.ratePerSecond()).isEqualTo(5.0));
    }

    @Test
    void unknownBlankAndMissingSecretsAreRefused() {
        assertThat(store.authenticate("wrong")).isEmpty();
        assertThat(store.authenticate(" ")).isEmpty();
        assertThat(store.authenticate(null)).isEmpty();
    }

    @Test
    void theIdIsAHashPrefixThatNeverShowsTheSecret() {
        var id = store.authenticate("irrigation-secret").orElseThrow().id();

        assertThat(id).hasSize(12).doesNotContain("secret").matches("[0-9a-f]+");
        assertThat(store.summary()).isEqualTo("3 device keys, 2 dashboard tokens, 1 admin token");
    }

    @Test
    void oneSecretInTwoRolesIsRefusedAtStartup() {
        assertThatThrownBy(() -> new CredentialStore(properties(
                        List.of("same"), List.of(new DashboardToken("same", List.of("*"))), List.of(), null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("both")
                .hasMessageNotContaining("same");
    }

    @Test
    void secretsRotateFromTheCredentialsFileWithoutRestart(@TempDir Path dir) throws Exception {
        var file = dir.resolve("credentials");
        Files.writeString(file, "# role scope secret\nadmin old-admin\ndevice field old-key\n");
        var rotating = new CredentialStore(properties(List.of(), List.of(), List.of(), file));
        assertThat(rotating.authenticate("old-admin")).containsInstanceOf(Credential.Admin.class);

        Files.writeString(file, "admin new-admin\ndevice field new-key 10\ndashboard a,b new-dash\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        rotating.reloadIfChanged();

        assertThat(rotating.authenticate("old-admin")).isEmpty();
        assertThat(rotating.authenticate("old-key")).isEmpty();
        assertThat(rotating.authenticate("new-admin")).containsInstanceOf(Credential.Admin.class);
        assertThat(rotating.authenticate("new-key").orElseThrow())
                .isInstanceOfSatisfying(
                        Credential.Device.class,
                        d -> assertThat(d.ratePerSecond()).isEqualTo(10.0));
        assertThat(rotating.authenticate("new-dash").orElseThrow().channels()).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void aBrokenCredentialsFileKeepsThePreviousSecrets(@TempDir Path dir) throws Exception {
        var file = dir.resolve("credentials");
        Files.writeString(file, "device field good-key\n");
        var rotating = new CredentialStore(properties(List.of(), List.of(), List.of(), file));

        for (var broken : List.of(
                "just-one-field\n",
                "device field key not-a-number\n",
                "root everything\n",
                "admin a\ndashboard * a\n")) {
            Files.writeString(file, broken);
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
            rotating.reloadIfChanged();

            assertThat(rotating.authenticate("good-key")).as(broken).isPresent();
        }
    }

    private static SecurityProperties properties(
            List<String> admin, List<DashboardToken> dashboards, List<DeviceKey> devices, Path file) {
        return new SecurityProperties(admin, dashboards, devices, file, Duration.ofSeconds(5));
    }
}
