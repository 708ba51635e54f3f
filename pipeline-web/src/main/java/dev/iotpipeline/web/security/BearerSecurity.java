package dev.iotpipeline.web.security;

import dev.iotpipeline.web.problem.ProblemWriter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.AuthenticationFilter;

/**
 * The security chain of every service: stateless bearer authentication against the {@link CredentialStore},
 * the service's {@link ServiceRoutes}, open health and Prometheus endpoints, everything else admin-only,
 * and 401/403 answers as problems that name what was wrong.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
@EnableConfigurationProperties(SecurityProperties.class)
public class BearerSecurity implements DisposableBean {

    /** Browsers cannot set headers on a WebSocket upgrade, so they offer {@code bearer, <token>} as subprotocols. */
    public static final String WEBSOCKET_SUBPROTOCOL = "bearer";

    private static final Logger log = LoggerFactory.getLogger(BearerSecurity.class);

    private final CredentialStore credentials;
    private final ScheduledExecutorService reloader;

    BearerSecurity(SecurityProperties properties, ObjectProvider<CredentialLookup> lookup) {
        this.credentials = new CredentialStore(properties, lookup.getIfAvailable());
        log.info(
                "Credentials: {}{}",
                credentials.summary(),
                properties.credentialsFile() == null
                        ? ""
                        : " (and " + properties.credentialsFile() + ", checked every "
                                + properties.credentialsFileCheckInterval() + ")");
        this.reloader =
                properties.credentialsFile() == null ? null : startReloading(properties.credentialsFileCheckInterval());
    }

    private ScheduledExecutorService startReloading(Duration interval) {
        var executor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("credentials-reload").factory());
        executor.scheduleWithFixedDelay(
                credentials::reloadIfChanged, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return executor;
    }

    @Bean
    CredentialStore credentialStore() {
        return credentials;
    }

    /** Declared as a bean so Spring Boot creates no default user (and logs no generated password). */
    @Bean
    AuthenticationManager bearerAuthenticationManager() {
        return authentication -> {
            var credential = credentials
                    .authenticate((String) authentication.getCredentials())
                    .orElseThrow(() -> new BadCredentialsException("unknown secret"));
            return UsernamePasswordAuthenticationToken.authenticated(
                    credential,
                    null,
                    AuthorityUtils.createAuthorityList(
                            "ROLE_" + credential.role().name()));
        };
    }

    @Bean
    SecurityFilterChain pipelineSecurity(
            HttpSecurity http, AuthenticationManager manager, ServiceRoutes routes, ProblemWriter problems)
            throws Exception {
        var authentication = new AuthenticationFilter(manager, BearerSecurity::bearer);
        authentication.setSuccessHandler((request, response, auth) -> {});
        authentication.setFailureHandler((request, response, e) -> problems.write(
                response,
                request.getRequestURI(),
                HttpStatus.UNAUTHORIZED,
                "invalid-credentials",
                "The bearer secret is not a known credential"));
        return http.csrf(csrf -> csrf.disable())
                .httpBasic(basic -> basic.disable())
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .anonymous(anonymous -> {})
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .addFilterBefore(authentication, AuthorizationFilter.class)
                .authorizeHttpRequests(requests -> {
                    requests.dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR)
                            .permitAll();
                    requests.requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/prometheus")
                            .permitAll();
                    routes.authorize(requests);
                    requests.anyRequest().access(Access.admin());
                })
                .exceptionHandling(errors -> errors.authenticationEntryPoint((request, response, e) -> problems.write(
                                response,
                                request.getRequestURI(),
                                HttpStatus.UNAUTHORIZED,
                                "missing-credentials",
                                "Send a credential as 'Authorization: Bearer <secret>'"))
                        .accessDeniedHandler((request, response, e) -> {
                            if (e instanceof AuthorizationDeniedException denied
                                    && denied.getAuthorizationResult() instanceof Access.Denial denial) {
                                problems.write(
                                        response,
                                        request.getRequestURI(),
                                        HttpStatus.FORBIDDEN,
                                        denial.type(),
                                        denial.detail());
                            } else {
                                problems.write(
                                        response,
                                        request.getRequestURI(),
                                        HttpStatus.FORBIDDEN,
                                        "forbidden",
                                        "This credential may not call this endpoint");
                            }
                        }))
                .build();
    }

    /**
     * The presented secret: the {@code Authorization: Bearer} header, or on a WebSocket upgrade the token after
     * the {@code bearer} subprotocol. Null (anonymous) without either, so the answer is "missing credentials".
     */
    static Authentication bearer(HttpServletRequest request) {
        var secret = bearerSecret(request.getHeader(HttpHeaders.AUTHORIZATION));
        if (secret == null && "websocket".equalsIgnoreCase(request.getHeader(HttpHeaders.UPGRADE))) {
            secret = fromSubprotocols(request.getHeaders("Sec-WebSocket-Protocol"));
        }
        return secret == null ? null : UsernamePasswordAuthenticationToken.unauthenticated("bearer", secret);
    }

    /** The secret of an {@code Authorization: Bearer <secret>} header, or null for any other header or none. */
    public static String bearerSecret(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        var secret = authorization.substring(7).trim();
        return secret.isEmpty() ? null : secret;
    }

    private static String fromSubprotocols(Enumeration<String> headers) {
        if (headers == null) {
            return null;
        }
        List<String> protocols = Collections.list(headers).stream()
                .flatMap(h -> Arrays.stream(h.split(",")))
                .map(String::trim)
                .toList();
        int marker = protocols.indexOf(WEBSOCKET_SUBPROTOCOL);
        return marker >= 0 && marker + 1 < protocols.size() ? protocols.get(marker + 1) : null;
    }

    @Override
    public void destroy() {
        if (reloader != null) {
            reloader.shutdownNow();
        }
    }
}
