package dev.iotpipeline.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JDK AOT cache options of a JVM the stack starts (the broker, a service process): trained by
 * {@code ./pipeline aot}, used by every later start while the jars it was trained on are unchanged.
 *
 * <p>{@code ./pipeline} sets {@code IOT_AOT_DIR} (and {@code IOT_AOT_MODE=train} while training) only on a
 * JDK that has {@code -XX:AOTCacheOutput} (25+). A cache the JDK rejects, because a jar changed since, is
 * ignored without a word: the JVM then starts as it would without one.
 */
record AotCache(Path dir, boolean training) {

    static final String DIR = "IOT_AOT_DIR";
    static final String MODE = "IOT_AOT_MODE";

    /**
     * A method the training compiled with C2 runs as C1 level-2 code until every class that compilation depended on
     * is initialized, and level-2 code asks whether it is ready only every 2^11 calls: the warm-up's ~1,500 requests
     * did not reach that, so ingest's request path waited for the first waves. Every 2^8 calls, it is C2-compiled
     * while the warm-up runs (docs/benchmarks/raw/experiments/aot-training-length.md); ./pipeline passes the same
     * option to the in-JVM stack.
     */
    static final String REPLAY_CHECK = "-XX:Tier2InvokeNotifyFreqLog=8";

    /** The options for the environment's cache directory, none when there is none. */
    static List<String> options(Map<String, String> environment, String part) {
        var dir = environment.get(DIR);
        if (dir == null || dir.isBlank()) {
            return List.of();
        }
        return new AotCache(Path.of(dir), "train".equals(environment.get(MODE))).options(part);
    }

    /**
     * Where {@code ./pipeline} extracted a service's exec jar for its cache (the JDK caches classes of plain jars
     * on the class path only, not of jars nested in a jar), if it did.
     */
    static Optional<Path> extractedJar(Map<String, String> environment, Path execJar) {
        var dir = environment.get(DIR);
        if (dir == null || dir.isBlank()) {
            return Optional.empty();
        }
        var module = execJar.getFileName().toString().replaceFirst("-\\d.*$", "");
        var extracted = Path.of(dir, "jars", module, execJar.getFileName().toString());
        // The extracted jar keeps its exec jar's time: an exec jar rebuilt since (a build, then --no-build) is newer
        // code than the copy, so the service runs from it, without a cache, until the next training.
        return Files.isRegularFile(extracted) && !newer(execJar, extracted) ? Optional.of(extracted) : Optional.empty();
    }

    private static boolean newer(Path jar, Path than) {
        try {
            return Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(than)) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code part}'s options: write its cache at exit while training, else read it if there is one. */
    List<String> options(String part) {
        var cache = dir.resolve(part + ".aot");
        if (training) {
            return List.of("-XX:AOTCacheOutput=" + cache);
        }
        if (!Files.isRegularFile(cache)) {
            return List.of();
        }
        // The JDK reports a cache it cannot map (a rebuilt jar) as warnings and errors, then runs without it.
        return List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=off", "-Xlog:cds*=off", REPLAY_CHECK);
    }
}
