package dev.iotpipeline.kafka.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.kafka.core.KafkaProducerException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import tools.jackson.core.exc.StreamReadException;

class FailuresTest {

    @Test
    void shouldWaitOutADatabaseThatIsAway() {
        assertThat(Failures.isTransient(new CannotGetJdbcConnectionException(
                        "no connection", new SQLTransientConnectionException("pool timed out"))))
                .isTrue();
        assertThat(Failures.isTransient(new DataAccessResourceFailureException("I/O error")))
                .isTrue();
        assertThat(Failures.isTransient(new QueryTimeoutException("slow"))).isTrue();
        assertThat(Failures.isTransient(new CannotCreateTransactionException("no connection")))
                .isTrue();
    }

    @Test
    void shouldWaitOutADatabaseLostMidTransactionWhoseRollbackFailedToo() {
        var rollback = new TransactionSystemException("JDBC rollback failed", new SQLException("no connection"));
        rollback.initApplicationException(new DataAccessResourceFailureException("I/O error"));
        var refusedThenRolledBackBadly = new TransactionSystemException("JDBC rollback failed");
        refusedThenRolledBackBadly.initApplicationException(new DataIntegrityViolationException("refused"));

        assertThat(Failures.isTransient(rollback)).isTrue();
        assertThat(Failures.isTransient(refusedThenRolledBackBadly)).isFalse();
    }

    @Test
    void shouldWaitOutConnectionLossAndShutdownSqlStatesSpringDidNotTranslate() {
        var adminShutdown = new SQLException("terminating connection due to administrator command", "57P01");
        var connectionFailure = new BatchUpdateException("batch aborted", "08006", 0, new int[0], null);

        assertThat(Failures.isTransient(new UncategorizedSQLException("insert", "INSERT", adminShutdown)))
                .isTrue();
        assertThat(Failures.isTransient(new UncategorizedSQLException("insert", "INSERT", connectionFailure)))
                .isTrue();
    }

    @Test
    void shouldWaitOutKafkaBeingAwayWhereverTheFailureIsWrapped() {
        var timedOut = new KafkaProducerException(null, "send failed", new TimeoutException("metadata"));

        assertThat(Failures.isTransient(new ExecutionException(timedOut))).isTrue();
        assertThat(Failures.isTransient(new NotEnoughReplicasException("1 of 3")))
                .isTrue();
        assertThat(Failures.isTransient(new java.util.concurrent.TimeoutException()))
                .isTrue();
    }

    @Test
    void shouldNotWaitForWhatTheRecordItselfCauses() {
        var nul = new SQLException("invalid byte sequence for encoding \"UTF8\": 0x00", "22021");

        assertThat(Failures.isTransient(new DataIntegrityViolationException("refused", nul)))
                .isFalse();
        assertThat(Failures.isTransient(
                        new KafkaProducerException(null, "send failed", new RecordTooLargeException("2 MB"))))
                .isFalse();
        assertThat(Failures.isTransient(new StreamReadException(null, "not json")))
                .isFalse();
        assertThat(Failures.isTransient(new NullPointerException())).isFalse();
    }
}
