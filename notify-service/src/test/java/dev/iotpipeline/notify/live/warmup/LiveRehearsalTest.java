package dev.iotpipeline.notify.live.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.iotpipeline.notify.live.feed.DeliveryLogs;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry;
import dev.iotpipeline.notify.live.protocol.DashboardSocketHandler;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.CredentialStore;
import java.util.HashMap;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;

/** The rehearsal's token reads only its own channel and only until the warm-up ends; its sessions stay its own. */
class LiveRehearsalTest {

    private final DashboardSocketHandler own = mock(DashboardSocketHandler.class);
    private final DashboardSocketHandler live = mock(DashboardSocketHandler.class);
    private final LiveRehearsal rehearsal = new LiveRehearsal(own, new SubscriptionRegistry(), new DeliveryLogs(16));

    private static WebSocketSession sessionOf(Credential credential) {
        var session = mock(WebSocketSession.class);
        var attributes = new HashMap<String, Object>();
        attributes.put(DashboardSocketHandler.CREDENTIAL_ATTRIBUTE, credential);
        when(session.getAttributes()).thenReturn(attributes);
        return session;
    }

    @Test
    void acceptsItsTokenAsADashboardOfItsOwnChannelOnlyWhileTheWarmupRuns() throws Exception {
        assertThat(rehearsal.find(CredentialStore.sha256(rehearsal.secret()))).isNull();

        rehearsal.begin();
        var credential = rehearsal.find(CredentialStore.sha256(rehearsal.secret()));

        assertThat(credential).isInstanceOf(Credential.Dashboard.class);
        assertThat(credential.channels()).containsExactly(rehearsal.channel());
        assertThat(credential.allows("demo")).isFalse();
        assertThat(rehearsal.find(CredentialStore.sha256("demo-dashboard-token")))
                .isNull();

        rehearsal.end();

        assertThat(rehearsal.find(CredentialStore.sha256(rehearsal.secret()))).isNull();
    }

    @Test
    void drawsADifferentTokenAndChannelAtEachStart() {
        var other = new LiveRehearsal(own, new SubscriptionRegistry(), new DeliveryLogs(16));

        assertThat(other.secret()).isNotEqualTo(rehearsal.secret()).hasSize(64);
        assertThat(other.channel()).isNotEqualTo(rehearsal.channel()).startsWith("_warmup-");
    }

    @Test
    void routesTheRehearsalsSessionsToItsOwnHandlerAndEveryOtherToTheLiveOne() throws Exception {
        rehearsal.begin();
        var routing = rehearsal.routing(live);
        var rehearsed = sessionOf(rehearsal.find(CredentialStore.sha256(rehearsal.secret())));
        var dashboard = sessionOf(new Credential.Dashboard("d", Set.of("demo")));
        var message = new TextMessage("{\"type\":\"ping\"}");

        routing.afterConnectionEstablished(rehearsed);
        routing.handleMessage(rehearsed, message);
        routing.afterConnectionEstablished(dashboard);

        verify(own).afterConnectionEstablished(rehearsed);
        verify(own).handleMessage(rehearsed, message);
        verify(live, never()).afterConnectionEstablished(rehearsed);
        verify(live).afterConnectionEstablished(dashboard);
        verify(own, never()).afterConnectionEstablished(dashboard);
    }

    @Test
    void recognisesItsTokenOnARequestOnlyWhileItIsValid() {
        var request = new MockHttpServletRequest("GET", "/ws");
        request.addHeader("Authorization", "Bearer " + rehearsal.secret());
        var other = new MockHttpServletRequest("GET", "/ws");
        other.addHeader("Authorization", "Bearer demo-dashboard-token");

        assertThat(rehearsal.presentedBy(request)).isFalse();

        rehearsal.begin();

        assertThat(rehearsal.presentedBy(request)).isTrue();
        assertThat(rehearsal.presentedBy(other)).isFalse();

        rehearsal.end();

        assertThat(rehearsal.presentedBy(request)).isFalse();
    }
}
