package dev.iotpipeline.rules.rule;

import java.util.List;

/** A rule that cannot be accepted; position is the 0-based character offset of the problem in the expression. */
public class InvalidExpressionException extends RuntimeException {

    private final String field;
    private final int position;
    private final List<String> unknownNames;

    InvalidExpressionException(String field, String expression, int position, String message) {
        this(field, expression, position, message, List.of());
    }

    InvalidExpressionException(String field, String expression, int position, String message, List<String> unknown) {
        super(
                expression == null
                        ? field + ": " + message
                        : field + " '" + expression + "' is invalid at position " + position + ": " + message);
        this.field = field;
        this.position = position;
        this.unknownNames = List.copyOf(unknown);
    }

    public String field() {
        return field;
    }

    public int position() {
        return position;
    }

    public List<String> unknownNames() {
        return unknownNames;
    }
}
