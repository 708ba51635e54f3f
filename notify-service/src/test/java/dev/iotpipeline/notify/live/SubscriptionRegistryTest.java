package dev.iotpipeline.notify.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.notify.live.SubscriptionRegistry.Filter;
import dev.iotpipeline.notify.live.SubscriptionRegistry.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SubscriptionRegistryTest {

    private final SubscriptionRegistry registry = new SubscriptionRegistry();
    private final List<String> a = new ArrayList<>();
    private final List<String> b = new ArrayList<>();

    @Test
    void shouldDeliverOnlyToMatchingSubscriptionsInTheEnvelope() {
        registry.add(new Subscription("s-a", "s1", LiveStream.DATA_UNITS, new Filter("irrigation", null, null, null),
                null, a::add));
        registry.add(new Subscription("s-b", "s1", LiveStream.DATA_UNITS, new Filter("irrigation", null, "dev-2", null),
                null, b::add));

        int delivered = registry.dispatch(LiveStream.DATA_UNITS, "irrigation", "em300th", "dev-1", null, "{\"x\":1}");

        assertThat(delivered).isEqualTo(1);
        assertThat(a).containsExactly("{\"type\":\"data-unit\",\"subscription\":\"s1\",\"data\":{\"x\":1}}");
        assertThat(b).isEmpty();
    }

    @Test
    void shouldLimitChannelFreeSubscriptionsToTheTokensChannels() {
        registry.add(new Subscription("s-a", "all", LiveStream.ALARMS, Filter.ANY, Set.of("greenhouse"), a::add));
        registry.add(new Subscription("s-b", "all", LiveStream.ALARMS, Filter.ANY, null, b::add));

        registry.dispatch(LiveStream.ALARMS, "irrigation", "em300th", "dev-1", "MAJOR", "{}");
        registry.dispatch(LiveStream.DATA_UNITS, "greenhouse", "em300th", "dev-1", null, "{}");

        assertThat(a).isEmpty();
        assertThat(b).hasSize(1);
    }

    @Test
    void shouldStopDeliveringAfterUnsubscribeAndSessionClose() {
        registry.add(new Subscription("s-a", "s1", LiveStream.DATA_UNITS, Filter.ANY, null, a::add));
        registry.add(new Subscription("s-a", "s2", LiveStream.DATA_UNITS, Filter.ANY, null, a::add));

        assertThat(registry.remove("s-a", "s1")).isTrue();
        registry.dispatch(LiveStream.DATA_UNITS, "irrigation", "em300th", "dev-1", null, "{}");
        registry.removeSession("s-a");
        registry.dispatch(LiveStream.DATA_UNITS, "irrigation", "em300th", "dev-1", null, "{}");

        assertThat(a).hasSize(1);
        assertThat(registry.size()).isZero();
    }
}
