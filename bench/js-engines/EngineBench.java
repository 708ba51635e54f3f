import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntSupplier;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;

/**
 * The same TTN-style EM300-TH codec on Rhino (compiled to bytecode, as decoder-service runs it) and on
 * GraalJS (community, sandboxed context reused, as fast as it runs on a stock JDK): decodes per second on
 * one thread, median of timed rounds after a warm-up. Run by bench/js-engines.sh.
 */
public class EngineBench {

    public static void main(String[] args) throws Exception {
        var script = Files.readString(Path.of(args[0]));
        int rounds = Integer.parseInt(args[1]);
        var payload = HexFormat.of().parseHex("01755C03673401046865");
        System.out.println("| engine | decodes/s on one thread (median of " + rounds + " × 2 s) | µs per decode |");
        System.out.println("|---|---|---|");
        report("Rhino 1.9.2, compiled mode, ES6, class shutter", rounds, rhino(script, payload));
        report("GraalJS 25.0.2 (community), HostAccess.NONE, no I/O, context reused", rounds, graal(script, payload));
    }

    static IntSupplier rhino(String source, byte[] payload) {
        var cx = org.mozilla.javascript.Context.enter();
        cx.setLanguageVersion(org.mozilla.javascript.Context.VERSION_ES6);
        cx.setInterpretedMode(false);
        cx.setClassShutter(name -> false);
        cx.setInstructionObserverThreshold(5_000);
        Scriptable scope = cx.initSafeStandardObjects();
        cx.compileString(source, "codec.js", 1, null).exec(cx, scope);
        var decode = (Function) ScriptableObject.getProperty(scope, "decodeUplink");
        return () -> {
            var input = cx.newObject(scope);
            var bytes = new Object[payload.length];
            for (int i = 0; i < payload.length; i++) {
                bytes[i] = payload[i] & 0xFF;
            }
            ScriptableObject.putProperty(input, "bytes", cx.newArray(scope, bytes));
            ScriptableObject.putProperty(input, "fPort", 85);
            var result = (Scriptable) decode.call(cx, scope, scope, new Object[] {input});
            return ((java.util.Map<?, ?>) ScriptableObject.getProperty(result, "data")).size();
        };
    }

    static IntSupplier graal(String source, byte[] payload) {
        var context = Context.newBuilder("js").allowHostAccess(HostAccess.NONE).allowIO(IOAccess.NONE)
                .allowCreateThread(false).allowNativeAccess(false).option("engine.WarnInterpreterOnly", "false")
                .build();
        context.eval(Source.create("js", source));
        Value decode = context.getBindings("js").getMember("decodeUplink");
        Value makeInput = context.eval("js", "(function (bytes, fPort) { return { bytes: bytes, fPort: fPort }; })");
        return () -> {
            var bytes = new int[payload.length];
            for (int i = 0; i < payload.length; i++) {
                bytes[i] = payload[i] & 0xFF;
            }
            Value array = context.eval("js", "[]");
            for (int i = 0; i < bytes.length; i++) {
                array.setArrayElement(i, bytes[i]);
            }
            Value result = decode.execute(makeInput.execute(array, 85));
            return result.getMember("data").getMemberKeys().size();
        };
    }

    static void report(String name, int rounds, IntSupplier decode) {
        run(decode, 3_000_000_000L);
        List<Double> rates = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            rates.add(run(decode, 2_000_000_000L));
        }
        rates.sort(Double::compare);
        double rate = rates.get(rates.size() / 2);
        System.out.printf("| %s | %,.0f | %.2f |%n", name, rate, 1e6 / rate);
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
}
