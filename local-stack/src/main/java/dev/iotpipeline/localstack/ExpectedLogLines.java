package dev.iotpipeline.localstack;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.regex.Pattern;
import org.slf4j.Marker;
import org.slf4j.helpers.MessageFormatter;

/**
 * Drops log lines the local stack is known to produce while healthy, by logger and message, for the console
 * of {@code ./pipeline run} (configured in logback.xml, one filter per kind of line with the reason there).
 * A logger's level can only silence all of it; these loggers also say things worth seeing. Errors are never
 * dropped.
 */
public final class ExpectedLogLines extends TurboFilter {

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
    public FilterReply decide(Marker marker, Logger from, Level level, String format, Object[] params, Throwable t) {
        // Called for every logging call (level checks included, which carry no format), so cheap tests first.
        if (!isStarted()
                || format == null
                || level == null
                || level.isGreaterOrEqual(Level.ERROR)
                || !matches(from.getName())) {
            return FilterReply.NEUTRAL;
        }
        var message = params == null || params.length == 0 ? format : MessageFormatter.basicArrayFormat(format, params);
        if (drop.matcher(message).find()
                && (keep == null || !keep.matcher(message).find())) {
            return FilterReply.DENY;
        }
        return FilterReply.NEUTRAL;
    }

    private boolean matches(String name) {
        return name.startsWith(logger) && (name.length() == logger.length() || name.charAt(logger.length()) == '.');
    }
}
