import dev.iotpipeline.decoder.codec.CodecException;
import dev.iotpipeline.decoder.codec.InvalidScriptException;
import dev.iotpipeline.decoder.codec.JavaScriptCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;

/**
 * The JavaScript engine decision, measured: every codec of the corpus on decoder-service's JavaScriptCodec
 * (Rhino 1.9.2 in its sandbox, Closure's ES5 rewrite for syntax Rhino refuses) and on GraalJS (community,
 * sandboxed context, result handed over as one JSON string), decodes per second on one thread and build time;
 * and, with {@code hostile}, whether each engine stops a runaway script when its time is up. Run by
 * bench/js-engines.sh, once per JVM setup (GraalJS's optimizing runtime needs the module path and JVMCI).
 */
public class EngineBench {

    private static final Pattern FIRST_INPUT = Pattern.compile("\"fPort\"\\s*:\\s*(\\d+)\\s*,\\s*\"bytes\"\\s*:\\s*\\[([^\\]]*)\\]");

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        switch (args[0]) {
            case "corpus" -> corpus(Path.of(args[1]), args[2], Integer.parseInt(args[3]), Long.parseLong(args[4]));
            case "hostile" -> hostile(args[1], Integer.parseInt(args[2]));
            case "hostile-count" -> System.out.println(HOSTILE.size());
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    record Codec(String name, String source, int fPort, byte[] payload) {
    }

    static List<Codec> codecs(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            var list = new ArrayList<Codec>();
            for (var js : files.filter(p -> p.toString().endsWith(".js")).sorted().toList()) {
                var name = js.getFileName().toString().replace(".js", "");
                var examples = Files.readString(dir.resolve(name + ".examples.json"));
                var m = FIRST_INPUT.matcher(examples);
                if (!m.find()) {
                    throw new IllegalStateException("no example input for " + name);
                }
                var parts = m.group(2).isBlank() ? new String[0] : m.group(2).split(",");
                var payload = new byte[parts.length];
                for (int i = 0; i < parts.length; i++) {
                    payload[i] = (byte) Integer.parseInt(parts[i].trim());
                }
                list.add(new Codec(name, Files.readString(js), Integer.parseInt(m.group(1)), payload));
            }
            return list;
        }
    }

    /** One Markdown row per codec: size, build time, decodes/s (median of rounds) on the engine named. */
    static void corpus(Path dir, String engine, int rounds, long millisPerRound) throws Exception {
        double logSum = 0;
        var all = codecs(dir);
        for (var codec : all) {
            long buildStart = System.nanoTime();
            IntSupplier decode = switch (engine) {
                case "rhino" -> rhino(codec);
                case "graal" -> graal(codec);
                default -> throw new IllegalArgumentException(engine);
            };
            double buildMillis = (System.nanoTime() - buildStart) / 1e6;
            run(decode, 2_000_000_000L);
            var rates = new ArrayList<Double>();
            for (int i = 0; i < rounds; i++) {
                rates.add(run(decode, millisPerRound * 1_000_000L));
            }
            rates.sort(Double::compare);
            double rate = rates.get(rates.size() / 2);
            System.out.printf("| %s | %,d | %.0f | %,.0f | %.2f |%n", codec.name(), codec.source().length(),
                    buildMillis, rate, 1e6 / rate);
            logSum += Math.log(1e6 / rate);
        }
        System.out.printf("| **geometric mean** | | | | **%.2f** |%n", Math.exp(logSum / all.size()));
    }

    static IntSupplier rhino(Codec codec) {
        var compiled = JavaScriptCodec.compile(codec.name(), codec.source(), Duration.ofSeconds(1));
        return () -> {
            var decoded = compiled.decode(codec.payload(), codec.fPort());
            return decoded.measurements().size() + decoded.attributes().size();
        };
    }

    static final Engine ENGINE = Engine.newBuilder("js").option("engine.WarnInterpreterOnly", "false").build();

    static final String BRIDGE = """
            (function (decode, payload, fPort) {
              const bytes = [];
              for (let i = 0; i < payload.length; i++) { bytes[i] = payload.charCodeAt(i); }
              const out = typeof decodeUplink === 'function' ? decode({ bytes, fPort, recvTime: new Date() })
                : typeof Decode === 'function' ? { data: decode(fPort, bytes, {}) } : { data: decode(bytes, fPort) };
              return JSON.stringify(out);
            })
            """;

    static Context graalContext() {
        return Context.newBuilder("js").engine(ENGINE).allowHostAccess(HostAccess.NONE).allowIO(IOAccess.NONE)
                .allowCreateThread(false).allowNativeAccess(false).build();
    }

    static IntSupplier graal(Codec codec) {
        var context = graalContext();
        context.eval(Source.create("js", codec.source()));
        var bindings = context.getBindings("js");
        Value decode = Stream.of("decodeUplink", "Decode", "Decoder").map(bindings::getMember)
                .filter(v -> v != null && v.canExecute()).findFirst().orElseThrow();
        Value bridge = context.eval("js", BRIDGE);
        var chars = new char[codec.payload().length];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) (codec.payload()[i] & 0xFF);
        }
        var payload = new String(chars);
        return () -> bridge.execute(decode, payload, codec.fPort()).asString().length();
    }

    static double run(IntSupplier decode, long nanos) {
        long start = System.nanoTime();
        long end = start + nanos;
        long count = 0;
        long sink = 0;
        while (System.nanoTime() < end) {
            sink += decode.getAsInt();
            count++;
        }
        if (sink == 42) {
            System.out.print("");
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }

    /** Runaway built-in calls and loops: each engine gets 100 ms, then is cancelled; how long until it stops. */
    static final List<String> HOSTILE = List.of(
            "for (;;) { }",
            "return new Array(2e8).fill(0).length",
            "return Array.from({ length: 2e8 }).length",
            "return Array.prototype.map.call({ length: 2e8 }, x => x).length",
            "return Array.prototype.includes.call({ length: 2e8 }, 1)",
            "var a = [1]; var it = a.values(); a.length = 1e9; return [...it].length",
            "var t = 'a'.repeat(1e6); return t.includes('a'.repeat(5e5) + 'b')",
            "var t = 'a'.repeat(1e6); return t.split('a'.repeat(5e5) + 'b').length",
            "return /^(a+)+$/.test('a'.repeat(40) + '!')",
            "function f(n) { try { return f(n + 1); } catch (e) { return f(n + 1); } } return f(0)");

    /** One row; the script runs each case in a JVM of its own, since a call no cancel reaches keeps its core. */
    static void hostile(String engine, int index) throws Exception {
        var cancels = Executors.newSingleThreadScheduledExecutor();
        for (var body : List.of(HOSTILE.get(index))) {
            var source = "function decodeUplink(input) { " + body + " }";
            long[] start = new long[1];
            var done = new java.util.concurrent.CountDownLatch(1);
            var outcome = new String[1];
            Thread worker;
            if (engine.equals("rhino")) {
                var codec = JavaScriptCodec.compile("hostile", source, Duration.ofMillis(100));
                worker = Thread.ofPlatform().daemon().start(() -> {
                    start[0] = System.nanoTime();
                    try {
                        codec.decode(new byte[] {1}, 1);
                        outcome[0] = "returned";
                    } catch (CodecException | InvalidScriptException e) {
                        outcome[0] = e.getMessage().replace("javascript codec hostile ", "");
                    }
                    done.countDown();
                });
            } else {
                var context = graalContext();
                context.eval("js", source);
                var decode = context.getBindings("js").getMember("decodeUplink");
                start[0] = System.nanoTime();
                cancels.schedule(() -> {
                    try {
                        context.close(true);
                    } catch (RuntimeException e) {
                        // finished already
                    }
                }, 100, TimeUnit.MILLISECONDS);
                worker = Thread.ofPlatform().daemon().start(() -> {
                    try {
                        decode.execute(0);
                        outcome[0] = "returned";
                    } catch (PolyglotException e) {
                        outcome[0] = e.isCancelled() ? "cancelled" : e.getMessage();
                    } catch (RuntimeException e) {
                        outcome[0] = e.toString();
                    }
                    done.countDown();
                });
            }
            boolean stopped = done.await(5, TimeUnit.SECONDS);
            double millis = (System.nanoTime() - start[0]) / 1e6;
            System.out.printf("| `%s` | %s | %s |%n", body.replace("|", "\\|"),
                    stopped ? String.format("%.0f ms", millis) : "**still running after 5 s**",
                    stopped ? outcome[0].replace("|", "\\|") : "—");
        }
        System.exit(0);
    }
}
