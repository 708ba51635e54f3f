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
 * Decodes per second on one thread (one core) for every built-in codec and for JavaScript codecs (a small ES5 one,
 * a 100 KB one and one in ES2015+ syntax), median of several timed rounds after a warm-up. A benchmark run by
 * {@code bench/decoder.sh}, not a test: it asserts nothing.
 */
public final class CodecBenchmark {

    private CodecBenchmark() {}

    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("compare")) {
            compare(List.of(args).subList(1, args.length));
            return;
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        var round = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 2);
        Map<String, Case> cases = new LinkedHashMap<>();
        cases.put("em300th (built-in)", new Case(new Em300thCodec(), "01755C03673401046865", 85));
        cases.put("lht65 (built-in)", new Case(new Lht65Codec(), "CBF60B0D0376010ADD7FFF", 2));
        cases.put("cayenne-lpp (built-in)", new Case(new CayenneLppCodec(), "03670110056700FF", 1));
        cases.put(
                "json (built-in)",
                new Case(
                        new JsonCodec(),
                        HexFormat.of()
                                .formatHex("{\"measurements\":{\"temperature\":21.5,\"humidity\":40}}"
                                        .getBytes(StandardCharsets.UTF_8)),
                        1));
        script(cases, "em300th (JavaScript, 2 KB, ES5)", "/scripts/em300th-ttn-style.js", "01755C03673401046865", 85);
        script(
                cases,
                "ironbark-meter (JavaScript, 100 KB, ES5)",
                "/codecs/corpus/ironbark-meter.js",
                "0142086600020311A800",
                50);
        script(cases, "meridian-tank (JavaScript, 4 KB, ES2015+)", "/codecs/corpus/meridian-tank.js", "01015E0C00", 1);
        System.out.println("| codec | decodes/s on one thread (median of " + rounds + " × " + round.toSeconds()
                + " s) | µs per decode |");
        System.out.println("|---|---|---|");
        for (var entry : cases.entrySet()) {
            if (entry.getValue().codec() == null) {
                System.out.printf(
                        "| %s | refused: %s | |%n",
                        entry.getKey(), entry.getValue().hex());
                continue;
            }
            var perSecond = entry.getValue().measure(rounds, round);
            System.out.printf("| %s | %,.0f | %.2f |%n", entry.getKey(), perSecond, 1e6 / perSecond);
        }
    }

    /**
     * Reads the tables of several runs of this checkout, {@code --}, and several runs of an earlier one, and prints
     * per codec the median decodes/s of each and their ratio.
     */
    private static void compare(List<String> files) throws IOException {
        int split = files.indexOf("--");
        var now = medians(files.subList(0, split));
        var before = medians(files.subList(split + 1, files.size()));
        System.out.println("| codec | decodes/s now (median of " + split + " runs) | decodes/s before (median of "
                + (files.size() - split - 1) + " runs) | now ÷ before |");
        System.out.println("|---|---|---|---|");
        now.forEach((codec, rate) -> {
            var earlier = before.get(codec);
            System.out.printf(
                    "| %s | %s | %s | %s |%n",
                    codec,
                    rate.isNaN() ? "refused" : String.format("%,.0f", rate),
                    earlier == null || earlier.isNaN() ? "refused" : String.format("%,.0f", earlier),
                    earlier == null || earlier.isNaN() || rate.isNaN() ? "—" : String.format("%.2f", rate / earlier));
        });
    }

    /** Median decodes/s per codec over the tables in {@code files}; NaN for a codec the engine refused. */
    private static Map<String, Double> medians(List<String> files) throws IOException {
        var rates = new LinkedHashMap<String, List<Double>>();
        for (var file : files) {
            for (var line : java.nio.file.Files.readAllLines(java.nio.file.Path.of(file))) {
                var cells = line.split("\\|");
                if (cells.length < 3
                        || !line.startsWith("| ")
                        || line.startsWith("| codec")
                        || line.startsWith("|---")) {
                    continue;
                }
                var value = cells[2].trim();
                rates.computeIfAbsent(cells[1].trim(), k -> new ArrayList<>())
                        .add(value.startsWith("refused") ? Double.NaN : Double.parseDouble(value.replace(",", "")));
            }
        }
        var medians = new LinkedHashMap<String, Double>();
        rates.forEach((codec, list) -> {
            list.sort(Double::compare);
            medians.put(codec, list.get((list.size() - 1) / 2));
        });
        return medians;
    }

    /** A script case, or a row saying why the engine refused the script (an older build may). */
    private static void script(Map<String, Case> cases, String name, String resource, String hex, int fPort)
            throws IOException {
        try (var in = CodecBenchmark.class.getResourceAsStream(resource)) {
            var script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            try {
                cases.put(
                        name,
                        new Case(
                                JavaScriptCodec.compile(name.split(" ")[0], script, Duration.ofMillis(100)),
                                hex,
                                fPort));
            } catch (InvalidScriptException e) {
                cases.put(name, new Case(null, e.getMessage(), fPort));
            }
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
