package dev.iotpipeline.decoder.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.iotpipeline.decoder.codec.Decoded;
import dev.iotpipeline.events.EventJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Expected JSON flattened the way the JavaScript codec flattens a script's result, and values compared. */
class FlatValuesTest {

    private static JsonNode json(String text) {
        return EventJson.mapper().readTree(text);
    }

    @Test
    void nestedObjectsAndArrayItemsAreNamedByPathAndNumbersBecomeDoubles() {
        var flat = FlatValues.of(json("""
                {"temperature": 21, "air": {"humidity": 40.5}, "readings": [{"t": 1}, {"t": 2.5}], "list": [7, 8]}"""));

        assertThat(flat)
                .containsExactly(
                        entry("temperature", 21.0),
                        entry("air.humidity", 40.5),
                        entry("readings.0.t", 1.0),
                        entry("readings.1.t", 2.5),
                        entry("list.0", 7.0),
                        entry("list.1", 8.0));
    }

    @Test
    void booleansStayBooleansStringsStayStringsAndNullIsLeftOut() {
        var flat = FlatValues.of(json("{\"ok\": true, \"status\": \"open\", \"gone\": null, \"n\": \"12\"}"));

        assertThat(flat).containsExactly(entry("ok", true), entry("status", "open"), entry("n", "12"));
    }

    @Test
    void aTopLevelArrayFromNormalizeUplinkIsNamedByIndex() {
        var flat = FlatValues.of(json("[{\"air\": {\"temperature\": 20.1}}, {\"air\": {\"temperature\": 20.4}}]"));

        assertThat(flat).containsExactly(entry("0.air.temperature", 20.1), entry("1.air.temperature", 20.4));
    }

    @Test
    void emptyObjectsAndArraysAndAbsentDataHoldNoValues() {
        assertThat(FlatValues.of(json("{\"a\": {}, \"b\": []}"))).isEmpty();
        assertThat(FlatValues.of((JsonNode) null)).isEmpty();
    }

    @Test
    void aNumberTooLargeForADoubleIsLeftOutAsTheCodecLeavesOutInfinity() {
        var flat = FlatValues.of(json("{\"huge\": 1e400, \"fine\": 1}"));

        assertThat(flat).containsExactly(entry("fine", 1.0));
    }

    @Test
    void decodedOutputFlattensMeasurementsAndAttributesWithoutItsWarnings() {
        var decoded = new Decoded(
                Map.of("temperature", 21.5),
                Map.of("status", "ok", "alarm", false, "Bat_status", 3, "codecWarnings", List.of("low battery")));

        assertThat(FlatValues.of(decoded))
                .containsOnly(
                        entry("temperature", 21.5),
                        entry("status", "ok"),
                        entry("alarm", false),
                        entry("Bat_status", 3.0));
        assertThat(FlatValues.warnings(decoded)).containsExactly("low battery");
    }

    @Test
    void attributesHoldingMapsOrListsFlattenAsJsonWould() {
        var decoded = new Decoded(Map.of(), Map.of("gps", Map.of("fix", true), "tags", List.of("a", "b")));

        assertThat(FlatValues.of(decoded))
                .containsOnly(entry("gps.fix", true), entry("tags.0", "a"), entry("tags.1", "b"));
    }

    @Test
    void outputWithoutWarningsHasNone() {
        assertThat(FlatValues.warnings(new Decoded(Map.of(), Map.of()))).isEmpty();
    }

    @Test
    void numbersAreTheSameWithinARelativeBillionth() {
        assertThat(FlatValues.same(21.5, 21.5 + 1e-12)).isTrue();
        assertThat(FlatValues.same(0.1 + 0.2, 0.3)).isTrue();
        assertThat(FlatValues.same(1e12, 1e12 + 100)).isTrue();
        assertThat(FlatValues.same(1e12, 1e12 + 10_000)).isFalse();
        assertThat(FlatValues.same(21.5, 21.4)).isFalse();
        assertThat(FlatValues.same(0.0, 1e-8)).isFalse();
    }

    @Test
    void stringsAndBooleansMustMatchExactlyAndTypesMustAgree() {
        assertThat(FlatValues.same("open", "open")).isTrue();
        assertThat(FlatValues.same("open", "Open")).isFalse();
        assertThat(FlatValues.same(true, true)).isTrue();
        assertThat(FlatValues.same(true, false)).isFalse();
        assertThat(FlatValues.same(21.0, "21")).isFalse();
        assertThat(FlatValues.same(true, "true")).isFalse();
    }

    @Test
    void aMissingOrUnexpectedValueDiffersFromAnyValue() {
        assertThat(FlatValues.same(null, 1.0)).isFalse();
        assertThat(FlatValues.same(1.0, null)).isFalse();
        assertThat(FlatValues.same(null, null)).isTrue();
    }

    @Test
    void datesCompareAsTheStringsJavaScriptWrites() {
        assertThat(FlatValues.same("2026-11-22T10:00:00.000Z", "2026-11-22T10:00:00.000Z"))
                .isTrue();
        assertThat(FlatValues.same("2026-11-22T10:00:00.000Z", "2026-11-22T10:00:00Z"))
                .isFalse();
    }
}
