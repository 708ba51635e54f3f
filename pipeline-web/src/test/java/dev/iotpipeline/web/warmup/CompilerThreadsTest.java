package dev.iotpipeline.web.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilerThreadsTest {

    @TempDir
    Path tasks;

    @Test
    void sumsTheRunnableTimeOfTheCompilerThreadsOnly() throws IOException {
        thread("101", "C2 CompilerThre", "700000000 50000000 42");
        thread("102", "C1 CompilerThre", "200000000 10000000 17");
        thread("103", "main", "900000000 1 3");
        thread("104", "VM Thread", "800000000 1 3");

        assertThat(CompilerThreads.cpuNanos(tasks)).isEqualTo(960_000_000L);
    }

    @Test
    void skipsAThreadThatEndedBetweenTheListingAndTheRead() throws IOException {
        thread("101", "C2 CompilerThre", "700000000 0 42");
        Files.createDirectories(tasks.resolve("105"));
        Files.writeString(tasks.resolve("105/comm"), "C1 CompilerThre\n");

        assertThat(CompilerThreads.cpuNanos(tasks)).isEqualTo(700_000_000L);
    }

    @Test
    void readsThisJvmsCompilerThreadsOnLinux() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");

        // The test JVM compiled its test framework before this line: its compilers have run.
        assertThat(CompilerThreads.cpuNanos(Path.of("/proc/self/task"))).isPositive();
        assertThat(CompilerThreads.cpuMillis()).isNotNull();
    }

    private void thread(String id, String comm, String schedstat) throws IOException {
        var dir = Files.createDirectories(tasks.resolve(id));
        Files.writeString(dir.resolve("comm"), comm + "\n");
        Files.writeString(dir.resolve("schedstat"), schedstat + "\n");
    }
}
