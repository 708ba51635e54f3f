package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotCacheTest {

    @TempDir
    Path dir;

    @Test
    void withoutACacheDirectoryAJvmStartsAsItAlwaysDid() {
        assertThat(AotCache.options(Map.of(), "broker")).isEmpty();
        assertThat(AotCache.options(Map.of(AotCache.DIR, " "), "broker")).isEmpty();
        assertThat(AotCache.extractedJar(Map.of(), Path.of("ingest-service/target/ingest-service-0.1.0-exec.jar")))
                .isEmpty();
    }

    @Test
    void trainingWritesEachPartsCacheUnderItsOwnName() {
        var training = Map.of(AotCache.DIR, dir.toString(), AotCache.MODE, "train");

        assertThat(AotCache.options(training, "broker"))
                .containsExactly("-XX:AOTCacheOutput=" + dir.resolve("broker.aot"));
        assertThat(AotCache.options(training, "ingest"))
                .containsExactly("-XX:AOTCacheOutput=" + dir.resolve("ingest.aot"));
    }

    @Test
    void aTrainedCacheIsReadQuietlyAndAMissingOneIsNotAskedFor() throws Exception {
        Files.createFile(dir.resolve("broker.aot"));
        var use = Map.of(AotCache.DIR, dir.toString());

        assertThat(AotCache.options(use, "broker"))
                .containsExactly(
                        "-XX:AOTCache=" + dir.resolve("broker.aot"),
                        "-Xlog:aot*=off",
                        "-Xlog:cds*=off",
                        "-XX:Tier2InvokeNotifyFreqLog=8");
        assertThat(AotCache.options(use, "decoder")).isEmpty();
    }

    @Test
    void aServiceRunsFromItsExtractedJarOnlyWhenTheTrainingExtractedIt() throws Exception {
        var execJar = Path.of("/repo/notify-service/target/notify-service-0.1.0-SNAPSHOT-exec.jar");
        var env = Map.of(AotCache.DIR, dir.toString());
        assertThat(AotCache.extractedJar(env, execJar)).isEmpty();

        var extracted = dir.resolve("jars/notify-service/notify-service-0.1.0-SNAPSHOT-exec.jar");
        Files.createDirectories(extracted.getParent());
        Files.createFile(extracted);

        assertThat(AotCache.extractedJar(env, execJar)).contains(extracted);
    }

    @Test
    void anExecJarRebuiltAfterTheTrainingRunsAsBuiltNotFromTheOlderExtractedCopy() throws Exception {
        var execJar = Files.createDirectories(dir.resolve("repo/decoder-service/target"))
                .resolve("decoder-service-0.1.0-SNAPSHOT-exec.jar");
        var extracted = Files.createDirectories(dir.resolve("aot/jars/decoder-service"))
                .resolve("decoder-service-0.1.0-SNAPSHOT-exec.jar");
        Files.createFile(execJar);
        Files.createFile(extracted);
        var trainedAt = FileTime.from(Instant.parse("2026-11-26T06:23:00Z"));
        Files.setLastModifiedTime(execJar, trainedAt);
        Files.setLastModifiedTime(extracted, trainedAt);
        var env = Map.of(AotCache.DIR, dir.resolve("aot").toString());
        assertThat(AotCache.extractedJar(env, execJar)).contains(extracted);

        Files.setLastModifiedTime(execJar, FileTime.from(trainedAt.toInstant().plusSeconds(60)));

        assertThat(AotCache.extractedJar(env, execJar)).isEmpty();
    }
}
