package dev.iotpipeline.ingest.circuit;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.RetriableException;

/** Probes with a metadata request (describeCluster) on an admin client of its own. */
final class AdminProbe implements BrokerProbe {

    private final Admin admin;
    private final Duration timeout;

    AdminProbe(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    @Override
    public boolean clusterAnswers() throws InterruptedException {
        try {
            return !admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
                    .nodes()
                    .get(timeout.toMillis() + 100, TimeUnit.MILLISECONDS)
                    .isEmpty();
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            // a refusal such as an authorization error is still an answer: the cluster is reachable
            return e.getCause() instanceof ApiException && !(e.getCause() instanceof RetriableException);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
