package dev.iotpipeline.localstack;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline contract on the embedded default: a real KRaft broker process and a real PostgreSQL. */
class EmbeddedPipelineIT extends PipelineContract {

    @TempDir
    static Path data;

    private static LocalStack stack;

    @BeforeAll
    static void startStack() throws Exception {
        stack = startEmbedded(data);
    }

    @AfterAll
    static void stopStack() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Override
    protected LocalStack stack() {
        return stack;
    }

    static LocalStack startEmbedded(Path data) throws Exception {
        return LocalStack.startEmbedded(settings(data), freePort(), freePort(), freePort());
    }

    static LocalStack.Settings settings(Path data) {
        return new LocalStack.Settings(data, LocalStack.Ports.RANDOM, PipelineClient.DEVICE_KEY,
                PipelineClient.DASHBOARD_TOKEN, 3);
    }

    static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
