package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reading metric names out of PromQL, and the dashboard's shape; GrafanaDashboardIT checks the names against live services. */
class GrafanaDashboardTest {

    @Test
    void shouldFindTheMetricInsideFunctionsAggregationsAndRanges() {
        assertThat(GrafanaDashboard.metricNames(
                        "sum by (cause) (rate(ingest_requests_rejected_total[$__rate_interval]))"))
                .containsExactly("ingest_requests_rejected_total");
        assertThat(
                        GrafanaDashboard.metricNames(
                                "histogram_quantile(0.99, sum by (le, stream) (rate(notify_delivery_latency_seconds_bucket[5m])))"))
                .containsExactly("notify_delivery_latency_seconds_bucket");
    }

    @Test
    void shouldSkipLabelMatchersValuesGroupingLabelsAndKeywords() {
        var expression =
                "max by (job) (kafka_consumer_fetch_manager_records_lag_max{client_id!~\".*restore-consumer\", "
                        + "job=\"rate(x_total)\"}) / on (job) group_left (instance) sum without (le) (up offset 1h) > bool 1e3"
                        + " or vector(0) unless sum(a_total) and b_seconds_count";
        assertThat(GrafanaDashboard.metricNames(expression))
                .containsExactlyInAnyOrder(
                        "kafka_consumer_fetch_manager_records_lag_max", "up", "a_total", "b_seconds_count");
    }

    @Test
    void shouldKeepRecordingRuleNamesWithColonsAndFunctionsWrittenWithASpace() {
        assertThat(GrafanaDashboard.metricNames("sum (job:uplinks:rate5m) + abs (decoder_decode_seconds_sum)"))
                .containsExactlyInAnyOrder("job:uplinks:rate5m", "decoder_decode_seconds_sum");
    }

    @Test
    void shouldReportAPanelWhoseMetricNoServiceExposes() {
        var dashboard = GrafanaDashboard.parse("""
                {"panels": [
                  {"type": "row", "title": "Ingest", "panels": [
                    {"type": "timeseries", "title": "nested", "targets": [{"expr": "rate(no_such_metric_total[1m])"}]}]},
                  {"type": "timeseries", "title": "fine", "targets": [{"expr": "sum(notify_sessions)"}]}
                ]}""");

        assertThat(dashboard.missing(Set.of("notify_sessions")))
                .isEqualTo(Map.of("nested", Set.of("no_such_metric_total")));
    }

    @Test
    void shouldQueryEverythingTheIssueAsksTheDashboardToShow() {
        var metrics = GrafanaDashboard.read(GrafanaDashboard.IOT_PIPELINE).metricsByPanel();

        assertThat(metrics)
                .allSatisfy((panel, names) -> assertThat(names).as(panel).isNotEmpty());
        assertThat(metrics.values().stream().flatMap(Set::stream))
                .contains(
                        "ingest_uplinks_accepted_total",
                        "ingest_requests_rejected_total",
                        "notify_delivery_latency_seconds_bucket",
                        "kafka_consumer_fetch_manager_records_lag_max",
                        "decoder_dead_letters_total",
                        "rules_evaluations_total",
                        "rules_alarms_raised_total",
                        "notify_sessions",
                        "notify_messages_dropped_total",
                        "notify_send_buffer_deepest");
    }
}
