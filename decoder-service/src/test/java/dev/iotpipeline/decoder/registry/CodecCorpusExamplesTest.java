package dev.iotpipeline.decoder.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.events.CodecExample;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EventJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.type.TypeReference;

/**
 * Every codec of the corpus passes its own examples, whose expected outputs are Node's, through the check
 * {@code PUT} runs, and shows the form its source defines.
 */
class CodecCorpusExamplesTest {

    private static final Path CORPUS = Path.of("src/test/resources/codecs/corpus");

    private final Codecs codecs = new Codecs(Duration.ofSeconds(5));

    static Stream<String> codecNames() throws IOException {
        try (var files = Files.list(CORPUS)) {
            return files
                    .map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".js"))
                    .map(name -> name.substring(0, name.length() - ".js".length()))
                    .sorted()
                    .toList()
                    .stream();
        }
    }

    @ParameterizedTest
    @MethodSource("codecNames")
    void aCorpusCodecPassesItsExamplesAndShowsItsForm(String name) throws IOException {
        var source = Files.readString(CORPUS.resolve(name + ".js"));
        List<CodecExample> examples = EventJson.mapper()
                .readValue(Files.readString(CORPUS.resolve(name + ".examples.json")), new TypeReference<>() {});
        var codec = codecs.resolve(new DeviceType(
                name, DeviceType.SCHEMA_VERSION, DeviceType.JAVASCRIPT, source, null, null, Instant.EPOCH));

        var check = CodecExamples.run(codec, examples);

        assertThat(CodecExamples.validate(examples)).isEmpty();
        assertThat(check.mismatches()).isEmpty();
        assertThat(check.total()).isEqualTo(examples.size()).isPositive();
        assertThat(CodecForm.of(codec)).isEqualTo(declaredForm(source));
    }

    /** The form by the entry point the source declares, in the order the decoder looks for them. */
    private static String declaredForm(String source) {
        if (defines(source, "decodeUplink")) {
            return defines(source, "normalizeUplink") ? CodecForm.WITH_NORMALIZE : "decodeUplink";
        }
        return defines(source, "Decode") ? "Decode" : "Decoder";
    }

    private static boolean defines(String source, String function) {
        return Pattern.compile("(?m)^function\\s+" + function + "\\s*\\(")
                .matcher(source)
                .find();
    }
}
