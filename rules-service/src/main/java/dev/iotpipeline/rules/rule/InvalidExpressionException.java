package dev.iotpipeline.rules.rule;

/** A rule expression that does not parse; position is the 0-based character offset of the error. */
public class InvalidExpressionException extends RuntimeException {

    private final String field;
    private final int position;

    InvalidExpressionException(String field, String expression, int position, String message) {
        super(field + " '" + expression + "' is invalid at position " + position + ": " + message);
        this.field = field;
        this.position = position;
    }

    public String field() {
        return field;
    }

    public int position() {
        return position;
    }
}
