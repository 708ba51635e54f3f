package dev.iotpipeline.decoder.codec;

class Lht65CodecTest extends CodecTestBase {

    @Override
    protected UplinkCodec codec() {
        return new Lht65Codec();
    }
}
