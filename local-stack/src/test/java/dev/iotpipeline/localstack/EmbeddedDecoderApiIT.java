package dev.iotpipeline.localstack;

/** The decoder contract on the embedded default. */
class EmbeddedDecoderApiIT extends DecoderApiContract {

    @Override
    protected LocalStack stack() {
        return EmbeddedStack.shared();
    }
}
