package dev.iotpipeline.decoder.codec;

/** A payload that a codec cannot decode; the message becomes the dead-letter reason. */
public class CodecException extends RuntimeException {

    public CodecException(String message) {
        super(message);
    }
}
