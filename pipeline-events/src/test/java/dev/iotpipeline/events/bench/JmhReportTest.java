package dev.iotpipeline.events.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmhReportTest {

    @Test
    void shouldTabulateEachModulesResults(@TempDir Path dir) throws IOException {
        var json = dir.resolve("jmh-rules.json");
        Files.writeString(json, """
                [{"jmhVersion":"1.37","benchmark":"dev.iotpipeline.rules.rule.RulesJmh.evaluateRuleSet",
                  "mode":"avgt","threads":1,"forks":1,"jdkVersion":"25","vmName":"OpenJDK 64-Bit Server VM",
                  "vmVersion":"25+36","warmupIterations":3,"warmupTime":"2 s","measurementIterations":5,
                  "measurementTime":"2 s",
                  "primaryMetric":{"score":2.5,"scoreError":0.125,"scoreUnit":"us/op",
                                   "rawData":[[2.75,2.25,2.5]]}},
                 {"benchmark":"dev.iotpipeline.rules.rule.RulesJmh.evaluateOneCondition",
                  "primaryMetric":{"score":0.25,"scoreError":"NaN","scoreUnit":"us/op"}}]
                """);

        var report = JmhReport.render("bench/jmh.sh", "A noisy machine.", List.of(json), "2 cores");

        assertThat(report)
                .contains(
                        "Command: `bench/jmh.sh`",
                        "Machine: 2 cores.",
                        "A noisy machine.",
                        "## rules",
                        "JMH 1.37; 1 fork, 3 warm-up iterations of 2 s, 5 measured iterations of 2 s, 1 thread.",
                        "| RulesJmh.evaluateRuleSet | 2.50 ± 0.125 | 2.25 | us/op | 400,000 |",
                        "| RulesJmh.evaluateOneCondition | 0.250 | n/a | us/op | 4,000,000 |");
    }
}
