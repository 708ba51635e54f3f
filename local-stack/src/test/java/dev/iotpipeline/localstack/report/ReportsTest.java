package dev.iotpipeline.localstack.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reports against small fixtures (src/test/resources/report/); the expected lines are what the Python scripts
 * they replace (bench/report_*.py, k6/lib/capacity_report.py) printed for the same files.
 */
class ReportsTest {

    @TempDir
    Path temp;

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(ReportsTest.class.getResource("/report/" + name).toURI());
    }

    @Test
    void fanoutListsTheKnownScenariosFirstThenTheOthersWithTheMetersAfter() throws Exception {
        var md = FanoutReport.render(fixture("fanout"), "bench/fanout.sh");

        assertThat(md).startsWith("# WebSocket fan-out\n\nCommand: `bench/fanout.sh` on ");
        assertThat(md).contains("""
                | 1,000 subscribers x 1 msg/s (seed 000, Mainflux fan-out), 300 s | 1,000 / 1,000 | 300 | 300,000 | 300,000 | 0 | 0 | 22.4 | 19.8 | 42.3 | 59.2 | 243.7 |
                | 200 subscribers x 5 msg/s, 10 s | 199 / 200 | 50 | 9,950 | 9,940 | 10 | 0 | 12 | 11.5 | 30.25 | 41 | 1204.5 |
                """);
        assertThat(md)
                .contains(
                        "| 1,000 subscribers x 1 msg/s (seed 000, Mainflux fan-out) | no loss; p95 130 ms "
                                + "(3 x 8-vCPU Kubernetes nodes) | zero loss, p95 <= 20 ms | lost 0, mean 22.4 ms, p95 42.3 ms, 1,000 connected |\n");
        assertThat(md).doesNotContain("8,000 subscribers x 10 msg/s (seed 004");
        assertThat(md)
                .endsWith("notify-service meters after 1000x1: `notify_send_buffer_deepest 0.0`; "
                        + "`notify_send_buffer_high_water 1.0`\n\n");
    }

    @Test
    void fanoutVerdictFailsOnAnyLossOrMissingSubscriber() throws Exception {
        var line = new StringBuilder();
        assertThat(FanoutReport.verdict(fixture("fanout/1000x1.json"), line)).isTrue();
        assertThat(line)
                .hasToString(
                        "Subscribers 1000/1000; Expected: 300000; Actual: 300000; lost 0; mean 22.4 ms, p95 42.3 ms");

        assertThat(FanoutReport.verdict(fixture("fanout/200x5.json"), new StringBuilder()))
                .isFalse();
    }

    @Test
    void ingestGivesMediansRangesAndFailedRequestsPerScenario() throws Exception {
        var md = IngestReport.render(fixture("ingest").resolve("."), "RUNS=3 bench/ingest.sh");

        assertThat(md).startsWith("# Ingest benchmark\n\nCommand: `RUNS=3 bench/ingest.sh`, on this 2-core machine.");
        assertThat(md).contains("Each figure is the median of 3 runs");
        assertThat(md).contains("```\nk6 v1.8.1\ncores: 2\n```\n\n");
        assertThat(md).contains("""
                | HTTP ceiling: `/bench/noop` (202 without Kafka), req/s | 6,000 | 5,000–7,000 | 0 |
                | single-uplink POSTs/s, 202 after acks=all | 4,500 | 4,000–5,000 | 2 |
                | batched uplinks/s (100 per request) | 7,000 | 7,000–7,000 | 0 |
                | fixed-rate run: achieved req/s | 1,000 | 1,000–1,000 | 0 |
                | fixed-rate run: latency p50 / p95 / p99, ms | 4.6 / 7.6 / 10.1 | | |
                """);
        assertThat(md).contains("Single-uplink ingest reaches **75 %** of the HTTP ceiling");
        assertThat(md).endsWith("""
                | single-uplink POSTs/s | 3,250 | 3,000–3,500 | 1 |
                | fixed-rate run: achieved req/s | 1,000 | 1,000–1,000 | 0 |
                | fixed-rate run: latency p50 / p95 / p99, ms | 4.8 / 8.2 / 11.9 | | |
                """);
    }

    @Test
    void fuzzSumsThePropertiesAndFailsWhenOneFailed() throws Exception {
        var result = FuzzReport.render(fixture("fuzz"), List.of("demo-service"));

        assertThat(result.passed()).isFalse();
        assertThat(result.markdown()).isEqualTo("""
                | module | property | tries | seed | time (s) | failures | outcomes (share of tries) |
                |---|---|---|---|---|---|---|
                | demo-service | `ParsingPropertiesTest.anyBodyIsAValue` | 1,000 | -546485718146581300 | 12.5 | 0 | value 60%; 400 malformed-json 30%; 400 json-limits 10%; 400 invalid-field 0.40%; 1 more |
                | demo-service | `ParsingPropertiesTest.anyPathIsATarget` | 2,000 | 42 | 47.5 | 1 | 400 invalid-name 50%; 404 unknown 25%; 405 method 15%; 406 accept 8%; decoded 0.50%; 1 more |

                **Total: 3,000 generated inputs over 2 properties, 1 failing, 1.0 min of property time.**
                """);
        assertThat(FuzzReport.render(fixture("fuzz"), List.of("absent-service")).passed())
                .isFalse();
    }

    @Test
    void capacityWritesTheReportAndItsJsonWithTheSpreadAndSlowdown() throws Exception {
        var dir = copy(fixture("capacity"), temp.resolve("capacity"));

        assertThat(CapacityReport.rate50(dir)).isEqualTo(375);
        var md = CapacityReport.write(dir, 375, Map.of("RUN_COMMAND", "k6/run capacity", "STRESS_ARGS", "--cpu 2"));

        assertThat(Files.readString(dir.resolve("capacity-report.md"))).isEqualTo(md);
        assertThat(md)
                .contains("- **Command:** `k6/run capacity`\n- **Target:** ingest http://127.0.0.1:8080, notify "
                        + "http://127.0.0.1:8083\n- **Ramp:** single EM300-TH uplinks, steps of 10 s;");
        assertThat(md).contains("- **Stress:** `stress-ng --cpu 2` on the same machine\n");
        assertThat(md)
                .contains("| ramp-2 | 1,250/s | 1,500/s | the ramp stopped in this step; POST p99 158 ms > 100 |\n");
        assertThat(md)
                .contains("Over 3 ramps: 833/s ± 382 (min 500, max 1,250, cv 46 %). Steady runs below at 50 % of "
                        + "the median: **375 uplinks/s**.");
        assertThat(md).contains("""
                | steady-1 | 22,500 of 22,500 | 22,500 | 1.2 / 2.8 / 6.5 | 12.0 / 17.0 / 22.0 | ok |
                | steady-2 | 22,500 of 22,500 | 22,500 | 1.0 / 2.4 / 6.1 | 11.0 / 16.0 / 20.0 | ok |
                | stressed-1 | 22,400 of 22,500 | 22,400 | 4.0 / 15.5 / 120 | 24.0 / 45.0 / 63.0 | FAILED: uplinks_accepted count==22500 |
                | stressed-2 | 22,500 of 22,500 | 22,500 | 3.0 / 14.5 / 110 | 20.0 / 41.0 / 67.0 | ok |
                """);
        assertThat(md).contains("""
                | POST p50 | 1.1 ± 0.1 (min 1.0, max 1.2, cv 13 %) | 3.5 ± 0.7 (min 3.0, max 4.0, cv 20 %) | 3.18x |
                | POST p95 | 2.6 ± 0.3 (min 2.4, max 2.8, cv 11 %) | 15.0 ± 0.7 (min 14.5, max 15.5, cv 5 %) | 5.77x |
                | POST p99 | 6.3 ± 0.3 (min 6.1, max 6.5, cv 4 %) | 115 ± 7.4 (min 110, max 120, cv 6 %) | 18.29x |
                | time_lapse p50 | 11.5 ± 0.7 (min 11.0, max 12.0, cv 6 %) | 22.0 ± 2.8 (min 20.0, max 24.0, cv 13 %) | 1.91x |
                """);
        var json = Json.read(dir.resolve("capacity.json"));
        assertThat(json.get("rate50").asInt()).isEqualTo(375);
        assertThat(json.get("maxima").get("n").asInt()).isEqualTo(3);
        assertThat(json.get("maxima").get("max").asInt()).isEqualTo(1250);
        assertThat(json.get("stressed").get(0).get("failedThresholds").get(0).asString())
                .isEqualTo("uplinks_accepted count==22500");
        assertThat(json.get("slowdown").get(2).get("slowdown").asDouble())
                .isCloseTo(115.25 / 6.3, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void throughputGivesMediansRangesAndAVerdictPerTarget() throws Exception {
        var md = ThroughputReport.render(fixture("throughput"), "RUNS=2 bench/throughput.sh");

        assertThat(md)
                .startsWith(
                        "# Throughput: uplinks accepted and stored per second\n\n"
                                + "- **Command:** `RUNS=2 bench/throughput.sh`\n"
                                + "- **Machine:** 2 cores (Test CPU @ 2.0GHz); openjdk version \"25\" 2025-09-16 LTS; generator: "
                                + "bench/postload (go1.26.8), 256 connections, 1000 devices, on the same machine\n"
                                + "- **Runs:** 2 fresh stacks; on each a warm-up of 60 s at 1,000 requests/s (not counted), then");
        assertThat(md).contains("""
                | ≥ 5,000 single-POST uplinks/s stored for 60 s with 0 errors | 4,918/s stored (lowest run 4,878/s), errors 12, 60 s | **not met** (a run stored less, errors) |
                | ≥ 40,000 batched uplinks/s stored for 60 s | 100,250/s stored (lowest run 100,000/s), errors 0, 60 s | **met** |
                """);
        assertThat(md).contains("""
                | figure | single-POST: 5,000 req/s × 1 uplink | batched: 1,000 req/s × 100 uplinks |
                |---|---|---|
                | uplinks/s accepted | 5,000 (5,000–5,000) | 100,250 (100,000–100,500) |
                | uplinks/s stored | 4,918 (4,878–4,958) | 100,250 (100,000–100,500) |
                | errors: non-202 + transport + not sent in time | 10 + 0 + 2 | 0 + 0 + 0 |
                | latency p50, ms | 2.3 (2.1–2.5) | 27.5 (25.0–30.0) |
                | latency p95, ms | 6.0 (5.5–6.5) | 75.0 (70.0–80.0) |
                | latency p99, ms | 16.2 (12.3–20.1) | 145 (140–150) |
                | latency max, ms | 726 (250–1,201) | 850 (800–900) |
                | drain time, s | 1.0 (0.5–1.5) | 0.0 (0.0–0.0) |
                | generator CPU share, % | 13.0 (12.0–14.0) | 2.5 (2.0–3.0) |
                | stack CPU share, % | 80.3 (78.0–82.6) | 92.0 (91.4–92.7) |
                | stack CPU per uplink stored, µs | 327 (320–333) | 18.5 (18.3–18.6) |
                """);
        assertThat(md).contains("| run-2 | single | 299,988 | 299,988 | 0.5 | 10 | 0 | 2 | 202: 299,988; 503: 10 |\n");
        assertThat(md).doesNotContain("warmup");
    }

    @Test
    void aThroughputPhaseNotAllStoredOrShorterThanTheTargetIsNotMet() throws Exception {
        var dir = copy(fixture("throughput"), temp.resolve("throughput"));
        var run = dir.resolve("run-2");
        Files.writeString(
                run.resolve("batched-stored.json"),
                Files.readString(run.resolve("batched-stored.json"))
                        .replace("\"stored\":6030000", "\"stored\":6000000")
                        .replace("\"drained\":true", "\"drained\":false")
                        .replace("\"drainSeconds\":0.00", "\"drainSeconds\":120"));
        Files.writeString(
                run.resolve("batched.json"),
                Files.readString(run.resolve("batched.json"))
                        .replace("\"durationSeconds\": 60", "\"durationSeconds\": 30"));

        var md = ThroughputReport.render(dir, "bench/throughput.sh");

        assertThat(md)
                .contains("| ≥ 40,000 batched uplinks/s stored for 60 s | 70,000/s stored (lowest run 40,000/s), "
                        + "errors 0, 60 s | **not met** (not all stored within the drain timeout, shorter than "
                        + "60 s) |\n");
        assertThat(md)
                .contains("| run-2 | batched | 6,030,000 | 6,000,000 | not all stored | 0 | 0 | 0 | 202: 60,300 |\n");
    }

    @Test
    void restartsTakeTheMinuteAfterReadyFromTheSamplesAndTheVerdictFromTheSuite() throws Exception {
        // Ready at t = 10 s: a POST sent before it and one sent after its minute are outside the window, and so is
        // an uplink received after ready but sent before (the backlog of the time the instance was down).
        var posts = new StringBuilder();
        posts.append("http_req_duration,10500,900.0,ingestion\n");
        posts.append("time_lapse,12000,5000.0,subscribe\n");
        for (int i = 1; i <= 100; i++) {
            posts.append("http_req_duration,")
                    .append(10_000 + i * 100)
                    .append(',')
                    .append(i)
                    .append(".0,ingestion\n");
            posts.append("time_lapse,")
                    .append(10_000 + i * 100)
                    .append(',')
                    .append(2 * i)
                    .append(".0,subscribe\n");
        }
        posts.append("http_req_duration,71400,900.0,ingestion\n");
        posts.append("http_req_duration,20000,700.0,subscribe\n");
        restartCase("run-1/decoder-kill", 2_000, 10_000, posts.toString(), 30_000, 30_000, 0);
        restartCase(
                "run-2/decoder-kill",
                2_000,
                10_000,
                posts.toString().replace("20000,100.0,", "20000,300.0,"),
                30_000,
                29_990,
                3);
        // Ingest over two instances: the attempts the down one refused were sent to the other.
        restartCase("run-1/ingest-kill", 3_000, 10_000, posts.toString(), 30_000, 30_000, 251, 250);
        // The comparison run without a restart: its window starts with the load, and it has no down → ready.
        restartCase("run-1/ingest-warm", 10_000, 10_000, posts.toString(), 30_000, 30_000, 0);

        var md = RestartReport.render(temp, "RUNS=2 bench/restarts.sh");

        assertThat(md)
                .startsWith("# Restarts under the seed load")
                .contains("- **Command:** `RUNS=2 bench/restarts.sh`");
        // Ready 8 s after down, sent until 70.5 s; p99 of 1..100 = 99; in run 2 the 100 became 300 (its max).
        assertThat(md)
                .contains("| decoder: kill -9 | 8.0 (8.0–8.0) | 60.0 (60.0–60.0) | 50.0 (50.0–50.0) | "
                        + "99.0 (99.0–99.0) | 200 (100–300) | 190 (190–190) | 198 (198–198) | 60,000 | 3 | 10 |");
        assertThat(md)
                .contains("| ingest: no restart, warm (the run after, for comparison) | - | 60.0 | 50.0 | 99.0 | 100 | "
                        + "190 | 198 | 30,000 | 0 | 0 |");
        assertThat(md)
                .contains("| ingest: kill -9 | 7.0 | 60.0 | 50.0 | 99.0 | 100 | 190 | 198 | 30,000 | "
                        + "251 (250 sent on) | 0 |");
    }

    private void restartCase(
            String name, long down, long ready, String samples, int accepted, int delivered, int failedPosts)
            throws IOException {
        restartCase(name, down, ready, samples, accepted, delivered, failedPosts, 0);
    }

    private void restartCase(
            String name,
            long down,
            long ready,
            String samples,
            int accepted,
            int delivered,
            int failedPosts,
            int failovers)
            throws IOException {
        var dir = temp.resolve(name);
        Files.createDirectories(dir.resolve("k6"));
        Files.writeString(dir.resolve("down-ms.txt"), down + "\n");
        Files.writeString(dir.resolve("ready-ms.txt"), ready + "\n");
        try (var gzip = new java.util.zip.GZIPOutputStream(Files.newOutputStream(dir.resolve("k6/samples.csv.gz")))) {
            gzip.write(("metric_name,timestamp,metric_value,scenario\n" + samples).getBytes());
        }
        Files.writeString(dir.resolve("k6/suite1-closed-loop-summary.json"), """
                {"metrics":{"uplinks_accepted":{"values":{"count":%d}},"data_units_stored":{"values":{"count":%d}},
                "data_units_received":{"values":{"count":%d}},
                "http_req_failed{scenario:ingestion}":{"values":{"passes":%d}},
                "ingest_failovers":{"values":{"count":%d}}}}
                """.formatted(
                        accepted, accepted, delivered, failedPosts, failovers));
    }

    @Test
    void latencyAddsTheSideSubscribersRowOnlyWhenEveryRunHasOne() throws Exception {
        for (int run = 1; run <= 2; run++) {
            for (var phase : List.of("cold", "warm")) {
                var dir = Files.createDirectories(temp.resolve("run-" + run).resolve(phase));
                Files.writeString(dir.resolve("suite1-closed-loop-summary.json"), """
                        {"metrics": {
                          "http_req_duration{scenario:ingestion}": {"values": {"med": 3, "p(95)": 20, "p(99)": %d, "max": 90}},
                          "time_lapse": {"values": {"med": 9, "p(95)": %d, "p(99)": 60, "max": 80}},
                          "uplinks_accepted": {"values": {"count": 30000}},
                          "data_units_received": {"values": {"count": 30000}}}}
                        """.formatted(40 + run, 30 + run));
                Files.writeString(dir.resolveSibling(phase + "-before.prom"), "");
                Files.writeString(dir.resolveSibling(phase + "-after.prom"), "");
                if (!(run == 2 && phase.equals("warm"))) {
                    Files.writeString(dir.resolveSibling(phase + "-side.json"), """
                            {"received": 30000, "latencyP50Ms": 8.5, "latencyP95Ms": %d, "latencyP99Ms": 44, "latencyMaxMs": 70.5}
                            """.formatted(20 + 4 * run));
                }
            }
        }

        var md = LatencyReport.render(temp, "SIDE_SUBSCRIBER=1 RUNS=2 bench/latency.sh");

        assertThat(md).contains("""
                        | ingest POST | 3.0 (3.0–3.0) | 20.0 (20.0–20.0) | 41.5 (41.0–42.0) | 90.0 (90.0–90.0) |
                        | time_lapse (ingest receivedAt to WebSocket receipt) | 9.0 (9.0–9.0) | 31.5 (31.0–32.0) | 60.0 (60.0–60.0) | 80.0 (80.0–80.0) |
                        | time_lapse at a second, Go subscriber (bench/wsload, SIDE_SUBSCRIBER=1) | 8.5 (8.5–8.5) | 26.0 (24.0–28.0) | 44.0 (44.0–44.0) | 70.5 (70.5–70.5) |

                        Accepted / delivered per run: 30,000 / 30,000, 30,000 / 30,000.
                        """);
        // The warm phase of run 2 has no side report: no row that would be a median of one run.
        assertThat(md.split("## warm")[1]).doesNotContain("Go subscriber");
    }

    @Test
    void latencyGivesEachProcesssCpuPerUplinkAcceptedWithItsJitShareAndTheStacksSum() throws Exception {
        for (int run = 1; run <= 2; run++) {
            for (var phase : List.of("cold", "warm")) {
                var dir = Files.createDirectories(temp.resolve("run-" + run).resolve(phase));
                Files.writeString(dir.resolve("suite1-closed-loop-summary.json"), """
                        {"metrics": {"uplinks_accepted": {"values": {"count": 10000}},
                          "data_units_received": {"values": {"count": 10000}}}}
                        """);
                Files.writeString(dir.resolveSibling(phase + "-before.prom"), "");
                Files.writeString(dir.resolveSibling(phase + "-after.prom"), "");
                // As part_cpu sorts them, and k6 last: seconds over the phase, of which JIT.
                Files.writeString(dir.resolveSibling(phase + "-cpu.txt"), """
                        broker 1.00 0.10
                        decoder %.2f %.2f
                        ingest 2.00 0.50
                        postgresql 0.50 0.00
                        k6 3.00 0
                        """.formatted(
                                run == 1 ? 1.0 : 1.5, run == 1 ? 0.2 : 0.4));
            }
        }

        var md = LatencyReport.render(temp, "RUNS=2 bench/latency.sh");

        assertThat(md.split("## warm")[1]).contains("""
                | process | µs per uplink | of which JIT |
                |---|---|---|
                | ingest | 200 (200–200) | 50.0 (50.0–50.0) |
                | decoder | 125 (100–150) | 30.0 (20.0–40.0) |
                | broker | 100 (100–100) | 10.0 (10.0–10.0) |
                | postgresql | 50.0 (50.0–50.0) | - |
                | **stack (all but k6)** | 475 (450–500) | 90.0 (80.0–100) |
                | k6 | 300 (300–300) | - |
                """);
    }

    @Test
    void latencyLeavesTheCpuTableOutWhenARunHasNoCpuFigures() throws Exception {
        var dir = Files.createDirectories(temp.resolve("run-1").resolve("cold"));
        Files.writeString(dir.resolve("suite1-closed-loop-summary.json"), """
                {"metrics": {"uplinks_accepted": {"values": {"count": 100}}}}
                """);
        Files.writeString(dir.resolveSibling("cold-before.prom"), "");
        Files.writeString(dir.resolveSibling("cold-after.prom"), "");
        Files.createDirectories(temp.resolve("run-1").resolve("warm"));
        Files.copy(
                dir.resolve("suite1-closed-loop-summary.json"),
                temp.resolve("run-1/warm/suite1-closed-loop-summary.json"));
        Files.writeString(temp.resolve("run-1/warm-before.prom"), "");
        Files.writeString(temp.resolve("run-1/warm-after.prom"), "");
        Files.writeString(temp.resolve("run-1/warm-cpu.txt"), "ingest+decoder+launcher 1.00 0.10\n");

        var md = LatencyReport.render(temp, "RUNS=1 bench/latency.sh");

        assertThat(md.split("## warm")[0]).doesNotContain("µs per uplink");
        // In-JVM the services and the launcher are one process, so one part.
        assertThat(md.split("## warm")[1]).contains("| one JVM: ingest, decoder, launcher | 10,000 | 1,000 |");
    }

    @Test
    void latencyShowsIngestsOwnTimeForTheAcceptedPostsAheadOfTheHops() throws Exception {
        var server = "http_server_requests_seconds_bucket{error=\"none\",exception=\"none\",method=\"POST\","
                + "outcome=\"SUCCESS\",status=\"202\",uri=\"/sensor-data/{channel}/encoded/{deviceType}\",le=\"%s\"} %d\n";
        for (var phase : List.of("cold", "warm")) {
            var dir = Files.createDirectories(temp.resolve("run-1").resolve(phase));
            Files.writeString(dir.resolve("suite1-closed-loop-summary.json"), """
                    {"metrics": {
                      "http_req_duration{scenario:ingestion}": {"values": {"med": 3, "p(95)": 20, "p(99)": 40, "max": 90}},
                      "time_lapse": {"values": {"med": 9, "p(95)": 30, "p(99)": 60, "max": 80}},
                      "uplinks_accepted": {"values": {"count": 100}},
                      "data_units_received": {"values": {"count": 100}}}}
                    """);
            Files.writeString(dir.resolveSibling(phase + "-before.prom"), "");
            Files.writeString(
                    dir.resolveSibling(phase + "-after.prom"),
                    server.formatted("0.001", 50) + server.formatted("0.01", 99) + server.formatted("0.1", 100)
                            + server.formatted("+Inf", 100)
                            + "ingest_kafka_send_seconds_bucket{le=\"0.01\"} 100\n"
                            + "ingest_kafka_send_seconds_bucket{le=\"+Inf\"} 100\n");
        }

        var md = LatencyReport.render(temp, "RUNS=1 bench/latency.sh");

        // p95: rank 95 of 100 lies 45/49 of the way through the bucket (1, 10] ms.
        assertThat(md.split("## warm")[1])
                .contains("| `http_server_requests_seconds{error=\"none\",exception=\"none\",method=\"POST\","
                        + "outcome=\"SUCCESS\",status=\"202\",uri=\"/sensor-data/{channel}/encoded/{deviceType}\"}` "
                        + "| 1.0 | 9.3 | 10.0 | 100 |\n| `ingest_kafka_send_seconds{}` |");
    }

    @Test
    void aSectionMovesEveryHeadingOneLevelDown() {
        assertThat(Reports.section("# Suite 2 (smoke size)\n\n- **Run:** x\n\n## Thresholds\n\n## Other\n### Deeper\n"))
                .isEqualTo("## Suite 2 (smoke size)\n\n- **Run:** x\n\n### Thresholds\n\n## Other\n### Deeper\n");
    }

    @Test
    void anUnknownKindIsAUsageError() throws IOException {
        assertThat(Reports.run(new String[] {"nonsense", "x"})).isEqualTo(2);
        assertThat(Reports.run(new String[] {"fanout"})).isEqualTo(2);
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (var files = Files.walk(from)) {
            for (var file : files.toList()) {
                var target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return to;
    }
}
