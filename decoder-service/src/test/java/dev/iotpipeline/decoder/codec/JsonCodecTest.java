package dev.iotpipeline.decoder.codec;

class JsonCodecTest extends CodecTestBase {

    @Override
    protected UplinkCodec codec() {
        return new JsonCodec();
    }
}
