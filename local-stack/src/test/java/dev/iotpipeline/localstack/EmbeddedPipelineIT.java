package dev.iotpipeline.localstack;

/** The pipeline contract on the embedded default: a real KRaft broker process and a real PostgreSQL. */
class EmbeddedPipelineIT extends PipelineContract {

    @Override
    protected LocalStack stack() {
        return EmbeddedStack.shared();
    }
}
