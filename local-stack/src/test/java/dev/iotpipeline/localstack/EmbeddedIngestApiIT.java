package dev.iotpipeline.localstack;

/** The ingest API contract on the embedded default. */
class EmbeddedIngestApiIT extends IngestApiContract {

    @Override
    protected LocalStack stack() {
        return EmbeddedStack.shared();
    }
}
