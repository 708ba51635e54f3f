package dev.iotpipeline.decoder.codec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes per second on one thread (one core) for every built-in codec and for the EM300-TH codec as a
 * TTN-style JavaScript script, median of several timed rounds after a warm-up. A benchmark run by
 * {@code bench/decoder.sh}, not a test: it asserts nothing.
 */
public final class CodecBenchmark {

    private CodecBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        var round = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 2);
        Map<String, Case> cases = new LinkedHashMap<>();
        cases.put("em300th (built-in)", new Case(new Em300thCodec(), "01755C03673401046865", 85));
        cases.put("lht65 (built-in)", new Case(new Lht65Codec(), "CBF60B0D0376010ADD7FFF", 2));
        cases.put("cayenne-lpp (built-in)", new Case(new CayenneLppCodec(), "03670110056700FF", 1));
        cases.put("json (built-in)", new Case(new JsonCodec(),
                HexFormat.of().formatHex("{\"measurements\":{\"temperature\":21.5,\"humidity\":40}}"
                        .getBytes(StandardCharsets.UTF_8)), 1));
        try (var in = CodecBenchmark.class.getResourceAsStream("/scripts/em300th-ttn-style.js")) {
            var script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            cases.put("em300th (JavaScript, Rhino)", new Case(JavaScriptCodec.compile("em300th-js", script,
                    Duration.ofMillis(100)), "01755C03673401046865", 85));
        }
        System.out.println("| codec | decodes/s on one thread (median of " + rounds + " × " + round.toSeconds()
                + " s) | µs per decode |");
        System.out.println("|---|---|---|");
        for (var entry : cases.entrySet()) {
            var perSecond = entry.getValue().measure(rounds, round);
            System.out.printf("| %s | %,.0f | %.2f |%n", entry.getKey(), perSecond, 1e6 / perSecond);
        }
    }

    private record Case(UplinkCodec codec, String hex, int fPort) {

        double measure(int rounds, Duration round) {
            var payload = HexFormat.of().parseHex(hex);
            run(payload, Duration.ofSeconds(2));
            List<Double> rates = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                rates.add(run(payload, round));
            }
            rates.sort(Double::compare);
            return rates.get(rates.size() / 2);
        }

        private double run(byte[] payload, Duration duration) {
            long end = System.nanoTime() + duration.toNanos();
            long count = 0;
            long sink = 0;
            long started = System.nanoTime();
            while (System.nanoTime() < end) {
                for (int i = 0; i < 100; i++) {
                    sink += codec.decode(payload, fPort).measurements().size();
                }
                count += 100;
            }
            if (sink == 42) {
                System.out.print("");
            }
            return count / ((System.nanoTime() - started) / 1e9);
        }
    }
}
