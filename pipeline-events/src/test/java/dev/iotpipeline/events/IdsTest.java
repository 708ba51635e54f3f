package dev.iotpipeline.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdsTest {

    @Test
    void shouldGenerateTimeOrderedVersion7Ids() {
        var first = Ids.newId();
        var second = Ids.newId();

        assertThat(first.version()).isEqualTo(7);
        assertThat(second.toString()).isGreaterThan(first.toString());
    }

    @Test
    void shouldDeriveTheSameIdFromTheSameSourceAndKeepItsTimestamp() {
        var uplinkId = Ids.newId();

        var once = Ids.derive(uplinkId, "data-unit");
        var again = Ids.derive(uplinkId, "data-unit");
        var other = Ids.derive(uplinkId, "alarm");

        assertThat(once).isEqualTo(again).isNotEqualTo(other).isNotEqualTo(uplinkId);
        assertThat(once.version()).isEqualTo(7);
        assertThat(once.variant()).isEqualTo(2);
        assertThat(once.getMostSignificantBits() >>> 16).isEqualTo(uplinkId.getMostSignificantBits() >>> 16);
    }

    @Test
    void shouldScopeNonUuidClientKeysToTheDevice() {
        var a = Ids.fromClientKey("irrigation", "dev-1", "retry-42");
        var b = Ids.fromClientKey("irrigation", "dev-2", "retry-42");
        var uuid = Ids.newId();

        assertThat(a).isEqualTo(Ids.fromClientKey("irrigation", "dev-1", "retry-42")).isNotEqualTo(b);
        assertThat(Ids.fromClientKey("irrigation", "dev-1", uuid.toString())).isEqualTo(uuid);
    }
}
