package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ChildJvmTest {

    private static final Function<String, Optional<String>> NOTHING_SET = name -> Optional.empty();

    @Test
    void allowsUnsafeMemoryAccessOnlyWhereTheOptionExists() {
        assertThat(ChildJvm.command(25, NOTHING_SET)).contains("--sun-misc-unsafe-memory-access=allow");
        assertThat(ChildJvm.command(23, NOTHING_SET)).contains("--sun-misc-unsafe-memory-access=allow");
        assertThat(ChildJvm.command(21, NOTHING_SET))
                .contains("--enable-native-access=ALL-UNNAMED")
                .doesNotContain("--sun-misc-unsafe-memory-access=allow");
    }

    @Test
    void passesOnTheInliningBudgetSetForThisJvmAndNothingItLeftToTheJvm() {
        var set = Map.of("MaxInlineLevel", "9", "InlineSmallCode", "1000", "FreqInlineSize", "100");

        assertThat(ChildJvm.command(25, name -> Optional.ofNullable(set.get(name))))
                .contains("-XX:MaxInlineLevel=9", "-XX:InlineSmallCode=1000")
                .noneMatch(option -> option.contains("FreqInlineSize"));
        assertThat(ChildJvm.command(25, NOTHING_SET)).noneMatch(option -> option.startsWith("-XX:"));
    }

    @Test
    void readsAnOptionAsSetExactlyWhenThisJvmsCommandLineSetIt() {
        // Under Maven the test JVM's argLine sets TieredStopAtLevel (the tests' JIT) and leaves MaxInlineLevel alone.
        var arguments = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (var name : List.of("TieredStopAtLevel", "MaxInlineLevel")) {
            var onCommandLine = arguments.stream()
                    .filter(argument -> argument.startsWith("-XX:" + name + "="))
                    .map(argument -> argument.substring(argument.indexOf('=') + 1))
                    .reduce((first, last) -> last);
            assertThat(ChildJvm.setOption(name)).as(name).isEqualTo(onCommandLine);
        }
    }

    @Test
    void thisJdkStartsAChildWithTheOptionsAndSaysNothingAboutThem() throws Exception {
        var command = new ArrayList<>(ChildJvm.command(
                Runtime.version().feature(), name -> Optional.of(name.equals("MaxInlineLevel") ? "9" : "1000")));
        command.add("-version");
        var process = new ProcessBuilder(command).redirectErrorStream(true).start();
        var output = new String(process.getInputStream().readAllBytes());

        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).doesNotContainIgnoringCase("warning");
    }
}
