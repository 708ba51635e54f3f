package dev.iotpipeline.notify.live;

import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.notify.live.protocol.DashboardSocketHandler;
import dev.iotpipeline.notify.live.protocol.TokenHandshakeInterceptor;
import dev.iotpipeline.notify.live.warmup.LiveRehearsal;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

/** Serves the live protocol on {@code /ws}, behind the shared security chain's credential check. */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class LiveEndpoint implements WebSocketConfigurer {

    private final DashboardSocketHandler handler;
    private final NotifyProperties properties;
    private final LiveRehearsal rehearsal;

    LiveEndpoint(DashboardSocketHandler handler, NotifyProperties properties, LiveRehearsal rehearsal) {
        this.handler = handler;
        this.properties = properties;
        this.rehearsal = rehearsal;
    }

    /** Tomcat closes a session whose client sends a larger message (1009) instead of buffering it. */
    @Bean
    ServletServerContainerFactoryBean webSocketContainer() {
        var container = new ServletServerContainerFactoryBean();
        container.setMaxTextMessageBufferSize(properties.websocket().maxMessageBytes());
        container.setMaxBinaryMessageBufferSize(properties.websocket().maxMessageBytes());
        return container;
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry handlers) {
        handlers.addHandler(rehearsal.routing(handler), "/ws")
                .addInterceptors(new TokenHandshakeInterceptor())
                .setAllowedOriginPatterns("*");
    }
}
