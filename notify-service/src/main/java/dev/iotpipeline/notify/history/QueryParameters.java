package dev.iotpipeline.notify.history;

import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;

/** What the history endpoints check the same way: the credential's channels, page sizes, enum parameters. */
final class QueryParameters {

    private QueryParameters() {}

    /** The channels the credential may read (null = all), after checking the one a query names. */
    static Set<String> scope(Credential credential, String channel) {
        if (channel != null) {
            requireChannel(credential, channel);
        }
        return credential.channels();
    }

    static void requireChannel(Credential credential, String channel) {
        if (!credential.allows(channel)) {
            throw Problems.of(
                    HttpStatus.FORBIDDEN,
                    "channel-forbidden",
                    "The " + credential.role().label() + " may not read channel '" + channel + "'");
        }
    }

    static int size(Integer limit, NotifyProperties.History limits) {
        int size = limit == null ? limits.defaultLimit() : limit;
        if (size < 1 || size > limits.maxLimit()) {
            throw invalid("limit", "limit: must be between 1 and " + limits.maxLimit());
        }
        return size;
    }

    static <E extends Enum<E>> String known(String name, String value, Class<E> values) {
        if (value != null
                && Arrays.stream(values.getEnumConstants())
                        .noneMatch(e -> e.name().equals(value))) {
            throw invalid(
                    name,
                    name + ": '" + value + "' is not one of "
                            + String.join(
                                    ", ",
                                    Arrays.stream(values.getEnumConstants())
                                            .map(Enum::name)
                                            .toList()));
        }
        return value;
    }

    static String upper(String value) {
        return value == null ? null : value.toUpperCase(Locale.ROOT);
    }

    static RuntimeException invalid(String parameter, String detail) {
        return Problems.of(HttpStatus.BAD_REQUEST, "invalid-parameter", detail, Map.of("parameter", parameter));
    }
}
