package dev.iotpipeline.notify.live.feed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.notify.live.feed.SubscriptionRegistry.Filter;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry.Subscription;
import dev.iotpipeline.notify.live.session.SessionSender;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SubscriptionRegistryTest {

    private final SubscriptionRegistry registry = new SubscriptionRegistry();
    private final List<String> a = new ArrayList<>();
    private final List<String> b = new ArrayList<>();
    private final SessionSender sinkA = sink(a);
    private final SessionSender sinkB = sink(b);

    /** A sender whose socket records what is written, synchronously, so the test sees the order. */
    private static SessionSender sink(List<String> out) {
        var socket = org.mockito.Mockito.mock(org.springframework.web.socket.WebSocketSession.class);
        try {
            org.mockito.Mockito.doAnswer(call ->
                            out.add(((org.springframework.web.socket.TextMessage) call.getArgument(0)).getPayload()))
                    .when(socket)
                    .sendMessage(org.mockito.ArgumentMatchers.any());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return new SessionSender(
                socket, Runnable::run, 100, java.time.Duration.ofMinutes(1), new SessionSender.Listener() {
                    @Override
                    public void sent(String stream, java.time.Instant receivedAt) {}

                    @Override
                    public void dropped(String cause) {}

                    @Override
                    public void queued(int depth) {}
                });
    }

    private static LiveEvent event(
            LiveStream stream, String channel, String deviceType, String deviceId, String severity, String json) {
        return new LiveEvent(
                stream, dev.iotpipeline.events.Ids.newId(), channel, deviceType, deviceId, severity, null, json, 0, 0);
    }

    @Test
    void shouldDeliverOnlyToMatchingSubscriptionsInTheEnvelope() {
        registry.add(new Subscription(
                "s-a", "s1", LiveStream.DATA_UNITS, new Filter("irrigation", null, null, null), null, sinkA));
        registry.add(new Subscription(
                "s-b", "s1", LiveStream.DATA_UNITS, new Filter("irrigation", null, "dev-2", null), null, sinkB));

        int delivered =
                registry.dispatch(event(LiveStream.DATA_UNITS, "irrigation", "em300th", "dev-1", null, "{\"x\":1}"));

        assertThat(delivered).isEqualTo(1);
        assertThat(a).containsExactly("{\"type\":\"data-unit\",\"subscription\":\"s1\",\"data\":{\"x\":1}}");
        assertThat(b).isEmpty();
    }

    @Test
    void shouldAddTheUplinksTraceIdToTheEnvelopeWhenItsRecordHadOne() {
        registry.add(new Subscription("s-a", "s1", LiveStream.DATA_UNITS, Filter.ANY, null, sinkA));
        var traced = new LiveEvent(
                LiveStream.DATA_UNITS,
                dev.iotpipeline.events.Ids.newId(),
                "c",
                "t",
                "d",
                null,
                null,
                "{\"x\":1}",
                0,
                0,
                "4bf92f3577b34da6a3ce929d0e0e4736");

        registry.dispatch(traced);

        assertThat(a)
                .containsExactly("{\"type\":\"data-unit\",\"subscription\":\"s1\",\"data\":{\"x\":1},"
                        + "\"traceId\":\"4bf92f3577b34da6a3ce929d0e0e4736\"}");
    }

    @Test
    void shouldLimitChannelFreeSubscriptionsToTheTokensChannels() {
        registry.add(new Subscription("s-a", "all", LiveStream.ALARMS, Filter.ANY, Set.of("greenhouse"), sinkA));
        registry.add(new Subscription("s-b", "all", LiveStream.ALARMS, Filter.ANY, null, sinkB));

        registry.dispatch(event(LiveStream.ALARMS, "irrigation", "em300th", "dev-1", "MAJOR", "{}"));
        registry.dispatch(event(LiveStream.DATA_UNITS, "greenhouse", "em300th", "dev-1", null, "{}"));

        assertThat(a).isEmpty();
        assertThat(b).hasSize(1);
    }

    @Test
    void shouldStopDeliveringAfterUnsubscribeAndSessionClose() {
        registry.add(new Subscription("s-a", "s1", LiveStream.DATA_UNITS, Filter.ANY, null, sinkA));
        registry.add(new Subscription("s-a", "s2", LiveStream.DATA_UNITS, Filter.ANY, null, sinkA));

        assertThat(registry.remove("s-a", "s1")).isTrue();
        registry.dispatch(event(LiveStream.DATA_UNITS, "irrigation", "em300th", "dev-1", null, "{}"));
        registry.removeSession("s-a");
        registry.dispatch(event(LiveStream.DATA_UNITS, "irrigation", "em300th", "dev-1", null, "{}"));

        assertThat(a).hasSize(1);
        assertThat(registry.size()).isZero();
    }
}
