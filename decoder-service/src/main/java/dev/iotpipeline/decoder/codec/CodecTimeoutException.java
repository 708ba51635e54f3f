package dev.iotpipeline.decoder.codec;

/** A codec that ran past its time limit; dead-lettered with its own cause so timeouts can be counted. */
public class CodecTimeoutException extends CodecException {

    public CodecTimeoutException(String message) {
        super(message);
    }
}
