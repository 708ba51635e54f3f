package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ExpectedLogLinesTest {

    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void setUp() {
        logged.setContext(context);
        logged.start();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(logged);
    }

    @Test
    void dropsOnlyTheMatchingLinesOfItsLoggerAndItsDescendants() {
        filter("org.apache.kafka.clients.NetworkClient", "=UNKNOWN_TOPIC_OR_PARTITION\\b", null);
        var client = context.getLogger("org.apache.kafka.clients.NetworkClient");

        client.warn(
                "[Consumer clientId=c] recoverable issue with correlation id {} : {}",
                2,
                "{uplinks.encoded=UNKNOWN_TOPIC_OR_PARTITION}");
        context.getLogger("org.apache.kafka.clients.NetworkClient.Child").warn("x=UNKNOWN_TOPIC_OR_PARTITION");
        client.warn("Connection to node -1 could not be established. Node may not be available.");
        context.getLogger("org.apache.kafka.clients.NetworkClientOther").warn("x=UNKNOWN_TOPIC_OR_PARTITION");

        assertThat(logged.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(
                        "Connection to node -1 could not be established. Node may not be available.",
                        "x=UNKNOWN_TOPIC_OR_PARTITION");
    }

    @Test
    void keepsTheLinesThatMatchItsKeepPatternAndNeverDropsAnError() {
        filter("io.zonky.test.db.postgres", "^", "(?i)error|fatal");
        var postgres = context.getLogger("io.zonky.test.db.postgres.embedded.EmbeddedPostgres");

        postgres.info("creating subdirectories ... ok");
        postgres.info("");
        postgres.info("{}", "2026-11-23 05:37:55 UTC [4202] FATAL:  lock file \"postmaster.pid\" already exists");
        postgres.error("caught i/o exception closing reader");

        assertThat(logged.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(
                        "2026-11-23 05:37:55 UTC [4202] FATAL:  lock file \"postmaster.pid\" already exists",
                        "caught i/o exception closing reader");
    }

    private void filter(String logger, String drop, String keep) {
        var filter = new ExpectedLogLines();
        filter.setContext(context);
        filter.setLogger(logger);
        filter.setDrop(drop);
        if (keep != null) {
            filter.setKeep(keep);
        }
        filter.start();
        logged.addFilter(filter);
    }
}
