package dev.iotpipeline.decoder.codec;

/** A JavaScript codec that the engine or the sandbox refuses, with the 1-based line and column of the error. */
public class InvalidScriptException extends RuntimeException {

    private final int line;
    private final int column;

    InvalidScriptException(String message, int line, int column) {
        super(message + " (line " + line + ", column " + column + ")");
        this.line = line;
        this.column = column;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
