package dev.iotpipeline.web.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FieldsTest {

    @Test
    void shouldAcceptExactlyTheDeviceIdsThePatternMatches() {
        var random = new Random(26);
        var alphabet = "aZ09._:-/ é\t\u0000";
        List<String> values =
                new ArrayList<>(List.of("", "a", "-a", "a".repeat(128), "a".repeat(129), "eui-70b3d57ed0"));
        for (int i = 0; i < 20_000; i++) {
            var value = new StringBuilder();
            int length = random.nextInt(4) == 0 ? 120 + random.nextInt(12) : random.nextInt(8);
            for (int j = 0; j < length; j++) {
                value.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            values.add(value.toString());
        }

        for (var value : values) {
            assertThat(Fields.isDeviceId(value))
                    .as("%s", value)
                    .isEqualTo(Fields.DEVICE_ID.matcher(value).matches());
        }
        assertThat(values).filteredOn(Fields::isDeviceId).hasSizeGreaterThan(1_000);
        assertThat(Fields.isDeviceId(null)).isFalse();
    }
}
