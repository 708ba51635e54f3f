package dev.iotpipeline.decoder.codec;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The built-in codecs by name. */
public final class Codecs {

    private final Map<String, UplinkCodec> byName;

    Codecs(List<UplinkCodec> codecs) {
        this.byName = codecs.stream().collect(Collectors.toUnmodifiableMap(UplinkCodec::name, Function.identity()));
    }

    public static Codecs builtIn() {
        return new Codecs(List.of(new Em300thCodec(), new JsonCodec()));
    }

    public Optional<UplinkCodec> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public List<String> names() {
        return byName.keySet().stream().sorted().toList();
    }
}
