package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.web.problem.JsonProblems;
import dev.iotpipeline.web.problem.Problems;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads a request body that is either one item or a JSON array of items. A batch is validated whole
 * before anything is written: the first bad item fails the request with its index in the problem.
 */
final class RequestItems {

    private final int maxBatchSize;

    RequestItems(int maxBatchSize) {
        this.maxBatchSize = maxBatchSize;
    }

    /** The parsed JSON tree of a body; its size was bounded before it was read ({@code iot.http.max-body-size}). */
    JsonNode parse(byte[] body) {
        try {
            return EventJson.mapper().readTree(body);
        } catch (JacksonException e) {
            throw new ErrorResponseException(HttpStatus.BAD_REQUEST, JsonProblems.describe(e), e);
        }
    }

    /** Maps every item, wrapping a failure of item i so its problem names the index. */
    <T, R> List<R> map(JsonNode body, Class<T> type, BiFunction<T, Integer, R> create) {
        if (!body.isArray()) {
            return List.of(create.apply(read(body, type, null), null));
        }
        if (body.isEmpty()) {
            throw Problems.of(HttpStatus.BAD_REQUEST, "empty-batch", "The batch holds no uplinks");
        }
        if (body.size() > maxBatchSize) {
            throw Problems.of(
                    HttpStatus.CONTENT_TOO_LARGE,
                    "batch-too-large",
                    "The batch holds " + body.size() + " uplinks; the limit is " + maxBatchSize);
        }
        var results = new ArrayList<R>(body.size());
        for (int i = 0; i < body.size(); i++) {
            try {
                results.add(create.apply(read(body.get(i), type, i), i));
            } catch (ErrorResponseException e) {
                throw atIndex(e, i);
            }
        }
        return results;
    }

    private static <T> T read(JsonNode node, Class<T> type, Integer index) {
        if (!node.isObject()) {
            throw Problems.of(
                    HttpStatus.BAD_REQUEST,
                    "malformed-json",
                    (index == null ? "The body" : "The item") + " must be a JSON object");
        }
        try {
            return EventJson.mapper().treeToValue(node, type);
        } catch (JacksonException e) {
            throw new ErrorResponseException(HttpStatus.BAD_REQUEST, JsonProblems.describe(e), e);
        }
    }

    private static ErrorResponseException atIndex(ErrorResponseException e, int index) {
        var body = e.getBody();
        var problem = Problems.of(
                HttpStatus.valueOf(e.getStatusCode().value()),
                body.getType().toString().substring(Problems.BASE.length()),
                "items[" + index + "]: " + body.getDetail());
        problem.getBody().setProperty("index", index);
        return problem;
    }
}
