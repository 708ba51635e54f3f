package dev.iotpipeline.localstack.report;

import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reading and writing the JSON the reports work on. */
final class Json {

    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    static JsonNode read(Path path) {
        return MAPPER.readTree(path.toFile());
    }
}
