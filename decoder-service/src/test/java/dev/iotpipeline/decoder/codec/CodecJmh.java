package dev.iotpipeline.decoder.codec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * JMH benchmark of one codec decoding one payload, for every built-in codec and for JavaScript codecs (a small ES5
 * one, a 100 KB one and one in ES2015+ syntax): the codec alone, without the decoder's record handling (that is
 * {@code DecoderJmh}). Run by {@code bench/decoder.sh}, which also compiles this class against an older commit's
 * codecs ({@code BEFORE=<commit>}): it uses only codec API that commit 756c1f8 already had.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CodecJmh {

    /** The cases by {@link #codec} value: the report's label, the codec, a payload it decodes and its fPort. */
    static final Map<String, Case> CASES = new LinkedHashMap<>();

    static {
        add("em300th", "em300th (built-in)", Em300thCodec::new, "01755C03673401046865", 85);
        add("lht65", "lht65 (built-in)", Lht65Codec::new, "CBF60B0D0376010ADD7FFF", 2);
        add("cayenne-lpp", "cayenne-lpp (built-in)", CayenneLppCodec::new, "03670110056700FF", 1);
        add(
                "json",
                "json (built-in)",
                JsonCodec::new,
                HexFormat.of()
                        .formatHex("{\"measurements\":{\"temperature\":21.5,\"humidity\":40}}"
                                .getBytes(StandardCharsets.UTF_8)),
                1);
        add(
                "em300th-js",
                "em300th (JavaScript, 2 KB, ES5)",
                script("em300th", "/scripts/em300th-ttn-style.js"),
                "01755C03673401046865",
                85);
        add(
                "ironbark-meter-js",
                "ironbark-meter (JavaScript, 100 KB, ES5)",
                script("ironbark-meter", "/codecs/corpus/ironbark-meter.js"),
                "0142086600020311A800",
                50);
        add(
                "meridian-tank-js",
                "meridian-tank (JavaScript, 4 KB, ES2015+)",
                script("meridian-tank", "/codecs/corpus/meridian-tank.js"),
                "01015E0C00",
                1);
    }

    /** The case measured; the values are {@link #CASES}'s keys, in its order. */
    @Param({"em300th", "lht65", "cayenne-lpp", "json", "em300th-js", "ironbark-meter-js", "meridian-tank-js"})
    public String codec;

    UplinkCodec compiled;
    byte[] payload;
    Integer fPort;

    /** Builds the codec (a script the engine refuses fails here, and JMH skips the case) and decodes once. */
    @Setup
    public void setUp() {
        var c = CASES.get(codec);
        if (c == null) {
            throw new IllegalArgumentException("no codec case " + codec + "; cases: " + CASES.keySet());
        }
        compiled = c.codec().get();
        payload = HexFormat.of().parseHex(c.hex());
        fPort = c.fPort();
        decode();
    }

    /** One payload decoded. Returned as Object so that the class compiles against older codecs too. */
    @Benchmark
    public Object decode() {
        return compiled.decode(payload, fPort);
    }

    record Case(String label, Supplier<UplinkCodec> codec, String hex, int fPort) {}

    private static void add(String key, String label, Supplier<UplinkCodec> codec, String hex, int fPort) {
        CASES.put(key, new Case(label, codec, hex, fPort));
    }

    /**
     * A JavaScript codec from a test resource. Its time limit is 1 s, not the service's 100 ms: a script's first,
     * cold decode can take longer than that on a loaded machine, and the limit is only a threshold the sandbox checks,
     * so its value does not change what a decode costs.
     */
    private static Supplier<UplinkCodec> script(String name, String resource) {
        return () -> {
            try (var in = CodecJmh.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("no resource " + resource);
                }
                return JavaScriptCodec.compile(
                        name, new String(in.readAllBytes(), StandardCharsets.UTF_8), Duration.ofSeconds(1));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
