package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChildJvmTest {

    @Test
    void allowsUnsafeMemoryAccessOnlyWhereTheOptionExists() {
        assertThat(ChildJvm.command(25)).contains("--sun-misc-unsafe-memory-access=allow");
        assertThat(ChildJvm.command(23)).contains("--sun-misc-unsafe-memory-access=allow");
        assertThat(ChildJvm.command(21))
                .contains("--enable-native-access=ALL-UNNAMED")
                .doesNotContain("--sun-misc-unsafe-memory-access=allow");
    }

    @Test
    void thisJdkStartsAChildWithTheOptionsAndSaysNothingAboutThem() throws Exception {
        var command = new ArrayList<>(ChildJvm.command());
        command.add("-version");
        var process = new ProcessBuilder(command).redirectErrorStream(true).start();
        var output = new String(process.getInputStream().readAllBytes());

        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).doesNotContainIgnoringCase("warning");
    }
}
