package dev.iotpipeline.kafka.batching;

/**
 * Whether a hop's records are sent at once ({@link SendNow}) or wait out the producer's {@code linger.ms} to share a
 * produce request with what other callers send meanwhile.
 *
 * <p>At once: when little else is waiting ({@code load} below {@code below}: at rest nothing waits for the linger),
 * when the records fill a request of their own ({@code from} or more), or while fewer than {@code belowRate} records
 * a second are sent (0: never). The linger saves the broker and every consumer downstream a request per caller,
 * which is what keeps 5,000 single POSTs a second within the box. At a few hundred a second devices posting in step
 * would wait for it, but sending each of them at once costs more requests per burst, which hurts where the box has
 * no CPU to spare (docs/benchmarks/raw/experiments/send-now-below-rate.md): so the rate bound is off by default.
 */
public final class SendNowRule {

    private final int below;
    private final int from;
    private final int belowRate;
    // Null while the rate bound is off: then a request or poll costs no clock read and no atomic add for it.
    private final RecentRate rate;

    public SendNowRule(int below, int from, int belowRate) {
        this(below, from, belowRate, belowRate > 0 ? new RecentRate() : null);
    }

    SendNowRule(int below, int from, int belowRate, RecentRate rate) {
        this.below = below;
        this.from = from;
        this.belowRate = belowRate;
        this.rate = belowRate > 0 ? rate : null;
    }

    /**
     * Counts {@code count} records about to be sent (with the rate bound on) and says whether they go at once;
     * {@code load} is what the hop already has in hand (ingest: other uplinks awaiting an ack; the decoder: the poll's
     * own size).
     */
    public boolean atOnce(long load, int count) {
        boolean quiet = rate != null && rate.add(count) < belowRate;
        return load < below || count >= from || quiet;
    }
}
