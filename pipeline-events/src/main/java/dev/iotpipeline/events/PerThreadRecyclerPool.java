package dev.iotpipeline.events;

import tools.jackson.core.util.BufferRecycler;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.core.util.RecyclerPool;

/**
 * Jackson's buffers kept per platform thread and shared through a deque among virtual threads.
 *
 * <p>Jackson 3's default pool is the shared deque alone: an acquire and a release per parser or generator, each a
 * compare-and-swap and a node allocated, which the profile of a batched load put at ~3 % of every Kafka listener's
 * CPU (about ten parsers and generators per uplink across the services). A listener's platform thread lives as long
 * as the service and uses its own buffers for free; a virtual thread (one per HTTP request) lives too short to own
 * any, so it keeps drawing from the shared deque.
 */
final class PerThreadRecyclerPool implements RecyclerPool<BufferRecycler> {

    private static final long serialVersionUID = 1L;

    private final RecyclerPool<BufferRecycler> perThread = JsonRecyclerPools.threadLocalPool();
    private final RecyclerPool<BufferRecycler> shared = JsonRecyclerPools.newConcurrentDequePool();

    private RecyclerPool<BufferRecycler> pool() {
        return Thread.currentThread().isVirtual() ? shared : perThread;
    }

    @Override
    public BufferRecycler acquireAndLinkPooled() {
        // Each pool links (or not) its recycler to itself, so a release returns it to where it came from.
        return pool().acquireAndLinkPooled();
    }

    @Override
    public BufferRecycler acquirePooled() {
        return pool().acquirePooled();
    }

    @Override
    public void releasePooled(BufferRecycler recycler) {
        pool().releasePooled(recycler);
    }
}
