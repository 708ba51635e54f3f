package dev.iotpipeline.localstack;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.regex.Pattern;

/**
 * Drops log lines the local stack is known to produce while healthy, by logger and message, from the console
 * of {@code ./pipeline run} (configured in logback.xml, one filter per kind of line with the reason there).
 * A logger's level can only silence all of it; these loggers also say things worth seeing. Errors are never
 * dropped. An appender filter, not a turbo filter: logback asks turbo filters on every logging call, level checks
 * of disabled levels included, which cost the stack about 2 % of its CPU under load (the Kafka clients check
 * TRACE per record); an appender filter sees only the lines about to be printed.
 */
public final class ExpectedLogLines extends Filter<ILoggingEvent> {

    private String logger;
    private Pattern drop;
    private Pattern keep;

    /** A logger name; its descendants are matched too, as logback levels are. */
    public void setLogger(String logger) {
        this.logger = logger;
    }

    /** A line of {@link #setLogger the logger} is dropped when this is found in its message ("^": every line)... */
    public void setDrop(String regex) {
        this.drop = Pattern.compile(regex);
    }

    /** ...unless this is found in it too. */
    public void setKeep(String regex) {
        this.keep = Pattern.compile(regex);
    }

    @Override
    public void start() {
        if (logger == null || drop == null) {
            addError("ExpectedLogLines needs <logger> and <drop>");
            return;
        }
        super.start();
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if (!isStarted() || event.getLevel().isGreaterOrEqual(Level.ERROR) || !matches(event.getLoggerName())) {
            return FilterReply.NEUTRAL;
        }
        var message = event.getFormattedMessage();
        if (message != null
                && drop.matcher(message).find()
                && (keep == null || !keep.matcher(message).find())) {
            return FilterReply.DENY;
        }
        return FilterReply.NEUTRAL;
    }

    private boolean matches(String name) {
        return name.startsWith(logger) && (name.length() == logger.length() || name.charAt(logger.length()) == '.');
    }
}
