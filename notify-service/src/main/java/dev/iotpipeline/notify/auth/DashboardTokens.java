package dev.iotpipeline.notify.auth;

import dev.iotpipeline.notify.NotifyProperties.DashboardToken;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Resolves dashboard tokens to the channels they may read; comparison is constant-time. */
public final class DashboardTokens {

    static final String ALL_CHANNELS = "*";

    private final List<DashboardToken> tokens;

    public DashboardTokens(List<DashboardToken> tokens) {
        this.tokens = List.copyOf(tokens);
    }

    /** The scope of a token, or empty when the token is unknown. */
    public Optional<Scope> resolve(String token) {
        if (token == null || token.isBlank()) {
            return Optional.empty();
        }
        byte[] presented = token.getBytes(StandardCharsets.UTF_8);
        Scope found = null;
        for (var candidate : tokens) {
            if (MessageDigest.isEqual(candidate.token().getBytes(StandardCharsets.UTF_8), presented) && found == null) {
                found = candidate.channels().contains(ALL_CHANNELS)
                        ? Scope.ALL
                        : new Scope(Set.copyOf(candidate.channels()));
            }
        }
        return Optional.ofNullable(found);
    }

    /** Extracts the token of an {@code Authorization: Bearer} header value. */
    public static String bearer(String authorization) {
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return authorization.substring(7).trim();
        }
        return null;
    }

    /** The channels a token may read; {@code channels == null} means every channel. */
    public record Scope(Set<String> channels) {

        public static final Scope ALL = new Scope(null);

        public boolean allows(String channel) {
            return channels == null || channels.contains(channel);
        }
    }
}
