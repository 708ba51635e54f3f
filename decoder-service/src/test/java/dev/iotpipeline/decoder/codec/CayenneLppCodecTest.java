package dev.iotpipeline.decoder.codec;

class CayenneLppCodecTest extends CodecTestBase {

    @Override
    protected UplinkCodec codec() {
        return new CayenneLppCodec();
    }
}
