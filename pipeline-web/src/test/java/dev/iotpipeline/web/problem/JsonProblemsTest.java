package dev.iotpipeline.web.problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Severity;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;

class JsonProblemsTest {

    record Item(String name, Integer count) {}

    record Body(String name, Severity severity, Boolean enabled, Instant at, List<Item> items) {}

    @Test
    void anUnknownEnumValueNamesTheFieldAndEveryAllowedValue() {
        var problem = describe("{\"severity\":\"loud\"}");

        assertThat(problem.getDetail())
                .isEqualTo("severity: 'loud' is not one of CRITICAL, MAJOR, MINOR, WARNING, INFO");
        assertThat(problem.getProperties()).containsEntry("field", "severity");
        assertThat(problem.getType().toString()).endsWith("/invalid-field");
    }

    @Test
    void aWrongTypeNamesTheNestedFieldAndWhatWasExpected() {
        assertThat(describe("{\"items\":[{\"count\":{}}]}").getDetail())
                .isEqualTo("items[0].count: expected an integer, got an object");
        assertThat(describe("{\"enabled\":\"sometimes\"}").getDetail())
                .isEqualTo("enabled: 'sometimes' is not true or false");
        assertThat(describe("{\"at\":\"yesterday\"}").getDetail())
                .startsWith("at: ")
                .contains("ISO-8601");
        assertThat(describe("{\"items\":5}").getDetail()).startsWith("items: expected an array");
    }

    @Test
    void aSyntaxErrorGivesItsPositionAndExceededLimitsTheirNumberWithoutJavaNames() {
        var syntax = describe("{\n\"name\": }");
        var deep = JsonProblems.describe(
                catchThrowable(() -> EventJson.mapper().readTree("[".repeat(100) + "]".repeat(100))));

        assertThat(syntax.getType().toString()).endsWith("/malformed-json");
        assertThat(syntax.getProperties()).containsEntry("line", 2);
        assertThat(deep.getType().toString()).endsWith("/json-limits");
        assertThat(deep.getDetail()).contains("64").doesNotContain("StreamReadConstraints", "`");
    }

    @Test
    void noDescriptionLeaksAJavaTypeName() {
        for (var json : List.of("{\"severity\":1.5}", "{\"items\":[1]}", "{\"name\":[1]}", "{\"at\":{}}", "[]")) {
            assertThat(describe(json).getDetail()).as(json).doesNotContain("java.", "dev.iotpipeline", "`");
        }
    }

    private static ProblemDetail describe(String json) {
        var failure = catchThrowable(() -> EventJson.mapper().readValue(json, Body.class));
        assertThat(failure).as(json).isNotNull();
        return JsonProblems.describe(failure);
    }
}
