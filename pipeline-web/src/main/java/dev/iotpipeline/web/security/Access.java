package dev.iotpipeline.web.security;

import dev.iotpipeline.web.security.Credential.Role;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

/** The authorization rules services compose their routes from; a refusal says which problem to answer. */
public final class Access {

    private Access() {}

    /** A refusal that names its problem type and detail, rendered as a 403 by the shared chain. */
    public static final class Denial extends AuthorizationDecision {

        private final String type;
        private final String detail;

        Denial(String type, String detail) {
            super(false);
            this.type = type;
            this.detail = detail;
        }

        public String type() {
            return type;
        }

        public String detail() {
            return detail;
        }
    }

    /** Only an admin token: everything that changes the pipeline. */
    public static AuthorizationManager<RequestAuthorizationContext> admin() {
        return roles(Role.ADMIN);
    }

    /** A dashboard or an admin token: reads; channel scope is applied by the handler for what it returns. */
    public static AuthorizationManager<RequestAuthorizationContext> reader() {
        return roles(Role.DASHBOARD, Role.ADMIN);
    }

    /** A device key bound to the channel named by the path variable {@code variable}. */
    public static AuthorizationManager<RequestAuthorizationContext> deviceOfChannel(String variable) {
        var device = roles(Role.DEVICE);
        return (authentication, context) -> {
            var role = device.authorize(authentication, context);
            if (role == null || !role.isGranted()) {
                return role;
            }
            var channel = context.getVariables().get(variable);
            return credential(authentication.get()).allows(channel)
                    ? role
                    : new Denial("channel-forbidden", "The device key is not valid for channel '" + channel + "'");
        };
    }

    /** Any of {@code roles}. */
    public static AuthorizationManager<RequestAuthorizationContext> roles(Role... roles) {
        var allowed = EnumSet.copyOf(Arrays.asList(roles));
        return (authentication, context) -> {
            var credential = credential(authentication.get());
            if (credential == null) {
                return new AuthorizationDecision(false);
            }
            return allowed.contains(credential.role())
                    ? new AuthorizationDecision(true)
                    : wrongRole(credential, allowed);
        };
    }

    static Credential credential(Authentication authentication) {
        return authentication != null && authentication.getPrincipal() instanceof Credential credential
                ? credential
                : null;
    }

    private static Denial wrongRole(Credential credential, Set<Role> allowed) {
        var needed = allowed.stream().map(Role::label).collect(Collectors.joining(" or "));
        return new Denial(
                "wrong-role",
                "This endpoint needs " + article(needed) + needed + "; the request sent "
                        + article(credential.role().label()) + credential.role().label());
    }

    private static String article(String noun) {
        return "aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ";
    }
}
