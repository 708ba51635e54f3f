package dev.iotpipeline.decoder.codec;

/** Decodes the payload of one device type; implementations are stateless and thread-safe. */
public interface UplinkCodec {

    /** The codec name a device type refers to. */
    String name();

    /** Throws {@link CodecException} with a reason a person can act on when the payload is not decodable. */
    Decoded decode(byte[] payload, Integer fPort);
}
