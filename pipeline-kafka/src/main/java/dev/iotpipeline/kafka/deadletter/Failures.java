package dev.iotpipeline.kafka.deadletter;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/** Tells failures that waiting cures (broker or database away) from those it never will. */
public final class Failures {

    /**
     * Spring counts {@link DataAccessResourceFailureException} as non-transient, but it is what a PostgreSQL
     * outage throws (no connection, connection lost, server shutting down), so it waits here like the rest.
     */
    private static final List<Class<? extends Throwable>> TRANSIENT = List.of(
            RetriableException.class,
            InterruptException.class,
            InterruptedException.class,
            TimeoutException.class,
            TransientDataAccessException.class,
            RecoverableDataAccessException.class,
            DataAccessResourceFailureException.class,
            CannotCreateTransactionException.class,
            SQLTransientException.class,
            SQLRecoverableException.class,
            SQLNonTransientConnectionException.class);

    /** SQLState classes of connection loss (08), rollbacks (40), resources (53), operator intervention (57), system (58). */
    private static final Set<String> TRANSIENT_SQL_STATE_CLASSES = Set.of("08", "40", "53", "57", "58");

    private Failures() {}

    /** True if anything in the cause chain is a failure that goes away by itself. */
    public static boolean isTransient(Throwable failure) {
        var seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
        for (var t = failure; t != null && seen.add(t); t = t.getCause()) {
            for (var type : TRANSIENT) {
                if (type.isInstance(t)) {
                    return true;
                }
            }
            // A rollback that failed after the work failed (the connection went with the database) is reported in
            // the work's place; what the work met decides.
            if (t instanceof TransactionSystemException rollback
                    && rollback.getApplicationException() != null
                    && isTransient(rollback.getApplicationException())) {
                return true;
            }
            if (t instanceof SQLException sql
                    && sql.getSQLState() != null
                    && sql.getSQLState().length() >= 2
                    && TRANSIENT_SQL_STATE_CLASSES.contains(sql.getSQLState().substring(0, 2))) {
                return true;
            }
        }
        return false;
    }

    /** The first exception in the chain of type {@code type}, or null. */
    static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        var seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
        for (var t = failure; t != null && seen.add(t); t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
