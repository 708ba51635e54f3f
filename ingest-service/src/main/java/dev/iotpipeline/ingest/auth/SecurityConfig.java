package dev.iotpipeline.ingest.auth;

import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.ingest.problem.ProblemWriter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.AuthenticationFilter;

/**
 * Device authentication with Spring Security: a bearer device key becomes a {@link DeviceKeys.Principal},
 * and {@code /sensor-data/{channel}/**} is allowed only for keys bound to that channel.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
@EnableScheduling
class SecurityConfig {

    private final DeviceKeys keys;

    SecurityConfig(IngestProperties properties) {
        this.keys = new DeviceKeys(properties.apiKeys(), properties.auth().keysFile());
    }

    @Bean
    DeviceKeys deviceKeys() {
        return keys;
    }

    @Scheduled(fixedDelayString = "${ingest.auth.keys-file-check-interval:5s}")
    void reloadKeys() {
        keys.reloadIfChanged();
    }

    @Bean
    SecurityFilterChain ingestSecurity(HttpSecurity http, ProblemWriter problems) throws Exception {
        AuthenticationManager manager = auth -> {
            var principal = keys.authenticate((String) auth.getCredentials())
                    .orElseThrow(() -> new BadCredentialsException("unknown device key"));
            return UsernamePasswordAuthenticationToken.authenticated(principal, null, AuthorityUtils.NO_AUTHORITIES);
        };
        var authentication = new AuthenticationFilter(manager, SecurityConfig::bearerKey);
        authentication.setSuccessHandler((request, response, auth) -> { });
        authentication.setFailureHandler((request, response, e) -> problems.write(response, request.getRequestURI(),
                HttpStatus.UNAUTHORIZED, "invalid-credentials", "The device key is not valid"));
        return http
                .csrf(csrf -> csrf.disable())
                .httpBasic(basic -> basic.disable())
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .addFilterBefore(authentication, AuthorizationFilter.class)
                .authorizeHttpRequests(requests -> requests
                        .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll()
                        .requestMatchers("/sensor-data/{channel}/**").access((auth, context) ->
                                new AuthorizationDecision(allows(auth.get(), context.getVariables().get("channel"))))
                        .requestMatchers("/actuator/**", "/v3/api-docs/**", "/bench/**", "/error").permitAll()
                        .anyRequest().denyAll())
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint((request, response, e) -> problems.write(response,
                                request.getRequestURI(), HttpStatus.UNAUTHORIZED, "missing-credentials",
                                "Send the device key as 'Authorization: Bearer <key>'"))
                        .accessDeniedHandler((request, response, e) -> problems.write(response, request.getRequestURI(),
                                HttpStatus.FORBIDDEN, "channel-forbidden",
                                "The device key is not valid for this channel")))
                .build();
    }

    private static boolean allows(Authentication authentication, String channel) {
        return authentication != null && authentication.getPrincipal() instanceof DeviceKeys.Principal principal
                && principal.allows(channel);
    }

    /** Null (anonymous) when there is no bearer header, so the entry point answers "missing credentials". */
    private static Authentication bearerKey(HttpServletRequest request) {
        var header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return UsernamePasswordAuthenticationToken.unauthenticated("device", header.substring(7).trim());
    }
}
