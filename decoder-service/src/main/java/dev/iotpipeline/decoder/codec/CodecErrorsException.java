package dev.iotpipeline.decoder.codec;

import java.util.List;

/** A payload the script itself rejected by returning {@code errors}; the errors are kept to compare with examples. */
public final class CodecErrorsException extends CodecException {

    private final List<String> errors;

    CodecErrorsException(String message, List<String> errors) {
        super(message);
        this.errors = List.copyOf(errors);
    }

    /** The errors the script returned, in its order. */
    public List<String> errors() {
        return errors;
    }
}
