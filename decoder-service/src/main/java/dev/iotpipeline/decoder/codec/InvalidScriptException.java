package dev.iotpipeline.decoder.codec;

/**
 * A JavaScript codec that the engine or the sandbox refuses, with the 1-based line and column of the error, each
 * -1 when the engine reported none (an engine failure, a limit, a script too large).
 */
public class InvalidScriptException extends RuntimeException {

    /** The line or column of an error that has no position. */
    public static final int UNKNOWN = -1;

    private final int line;
    private final int column;
    private final boolean syntax;

    InvalidScriptException(String message, int line, int column) {
        this(message, line, column, false);
    }

    private InvalidScriptException(String message, int line, int column, boolean syntax) {
        super(message + position(line, column));
        this.line = line > 0 ? line : UNKNOWN;
        this.column = line > 0 && column > 0 ? column : UNKNOWN;
        this.syntax = syntax;
    }

    /** An error without a position. */
    InvalidScriptException(String message) {
        this(message, UNKNOWN, UNKNOWN);
    }

    /** An error at a position as the engine reports it, 0 or less meaning it has none. */
    static InvalidScriptException at(String message, int line, int column) {
        return new InvalidScriptException(message, line, column);
    }

    /** A syntax error of Rhino's parser, as opposed to a name or construct the sandbox refuses. */
    static InvalidScriptException syntaxError(String message, int line, int column) {
        return new InvalidScriptException(message, line, column, true);
    }

    /** Whether Rhino's parser refused the script, which another parser may still accept. */
    boolean syntax() {
        return syntax;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    private static String position(int line, int column) {
        if (line <= 0) {
            return "";
        }
        return column > 0 ? " (line " + line + ", column " + column + ")" : " (line " + line + ")";
    }
}
