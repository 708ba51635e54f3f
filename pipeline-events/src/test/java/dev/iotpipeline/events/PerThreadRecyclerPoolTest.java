package dev.iotpipeline.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.core.util.BufferRecycler;

class PerThreadRecyclerPoolTest {

    private final PerThreadRecyclerPool pool = new PerThreadRecyclerPool();

    @Test
    void shouldLendAPlatformThreadItsOwnBuffersEveryTime() throws Exception {
        var first = pool.acquireAndLinkPooled();
        first.releaseToPool();
        var other = new AtomicReference<BufferRecycler>();
        var thread = Thread.ofPlatform().start(() -> other.set(pool.acquireAndLinkPooled()));
        thread.join();

        assertThat(pool.acquireAndLinkPooled()).isSameAs(first);
        assertThat(other.get()).isNotNull().isNotSameAs(first);
    }

    @Test
    void shouldLendVirtualThreadsTheBuffersAnotherOneReturned() throws Exception {
        var returned = new AtomicReference<BufferRecycler>();
        var lentAgain = new AtomicReference<BufferRecycler>();
        Thread.ofVirtual()
                .start(() -> {
                    var recycler = pool.acquireAndLinkPooled();
                    returned.set(recycler);
                    recycler.releaseToPool();
                })
                .join();
        Thread.ofVirtual()
                .start(() -> lentAgain.set(pool.acquireAndLinkPooled()))
                .join();

        assertThat(lentAgain.get()).isSameAs(returned.get());
        assertThat(returned.get()).isNotSameAs(pool.acquireAndLinkPooled());
    }
}
