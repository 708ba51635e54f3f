package dev.iotpipeline.decoder.codec;

class Em300thCodecTest extends CodecTestBase {

    @Override
    protected UplinkCodec codec() {
        return new Em300thCodec();
    }
}
