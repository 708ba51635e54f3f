package dev.iotpipeline.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.iotpipeline.web.security.Access;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.ServiceRoutes;
import java.util.Map;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The shared chain and problem layer in a web slice, with a stand-in service's routes and controller. */
@WebMvcTest(
        properties = {
            "iot.security.admin-tokens[0]=admin-secret",
            "iot.security.dashboard-tokens[0].token=dash-secret",
            "iot.security.dashboard-tokens[0].channels[0]=north",
            "iot.security.device-keys[0].channel=north",
            "iot.security.device-keys[0].key=device-secret",
            "iot.http.max-body-size=1KB"
        })
class PipelineWebSliceTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({PipelineWebConfiguration.class, Probe.class})
    static class Service {

        @Bean
        ServiceRoutes routes() {
            return routes -> routes.requestMatchers("/uplinks/{channel}")
                    .access(Access.deviceOfChannel("channel"))
                    .requestMatchers("/read")
                    .access(Access.reader());
        }
    }

    record Change(String name, Credential.Role role) {}

    @RestController
    static class Probe {

        @PostMapping("/uplinks/{channel}")
        Map<String, String> uplink(@PathVariable String channel, @AuthenticationPrincipal Credential credential) {
            return Map.of("channel", channel, "by", credential.id());
        }

        @GetMapping("/read")
        Map<String, Object> read(@AuthenticationPrincipal Credential credential) {
            return Map.of("role", credential.role());
        }

        @PostMapping("/change")
        Change change(@RequestBody Change change) {
            return change;
        }

        @GetMapping("/fail")
        String fail() {
            throw new IllegalStateException("secret internals at dev.iotpipeline.Something");
        }
    }

    @Autowired
    MockMvc mvc;

    @Test
    void aDeviceKeyMayPostToItsChannelOnlyAndOtherRolesAreTheWrongRole() throws Exception {
        mvc.perform(post("/uplinks/north").header("Authorization", "Bearer device-secret"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.channel").value("north"));
        mvc.perform(post("/uplinks/south").header("Authorization", "Bearer device-secret"))
                .andExpect(status().isForbidden())
                .andExpect(problem("channel-forbidden"));
        mvc.perform(post("/uplinks/north").header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isForbidden())
                .andExpect(problem("wrong-role"))
                .andExpect(jsonPath("$.detail")
                        .value("This endpoint needs a device key; the request sent a dashboard token"));
    }

    @Test
    void noCredentialIs401AndAnUnknownOneToo() throws Exception {
        mvc.perform(get("/read")).andExpect(status().isUnauthorized()).andExpect(problem("missing-credentials"));
        mvc.perform(get("/read").header("Authorization", "Bearer nope"))
                .andExpect(status().isUnauthorized())
                .andExpect(problem("invalid-credentials"));
        mvc.perform(get("/read").header("Authorization", "Basic YTpi"))
                .andExpect(status().isUnauthorized())
                .andExpect(problem("missing-credentials"));
    }

    @Test
    void anythingUnlistedIsForAdminsOnly() throws Exception {
        mvc.perform(post("/change")
                        .header("Authorization", "Bearer dash-secret")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\":\"x\"}"))
                .andExpect(status().isForbidden())
                .andExpect(problem("wrong-role"));
        mvc.perform(post("/change")
                        .header("Authorization", "Bearer admin-secret")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\":\"x\",\"role\":\"ADMIN\"}"))
                .andExpect(status().isOk());
        mvc.perform(get("/read").header("Authorization", "Bearer admin-secret")).andExpect(status().isOk());
    }

    @Test
    void aBodyThatDoesNotBindNamesTheFieldAndTheAllowedValues() throws Exception {
        mvc.perform(post("/change")
                        .header("Authorization", "Bearer admin-secret")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\":\"x\",\"role\":\"ROOT\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(problem("invalid-field"))
                .andExpect(jsonPath("$.detail").value("role: 'ROOT' is not one of DEVICE, DASHBOARD, ADMIN"))
                .andExpect(jsonPath("$.field").value("role"));
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        mvc.perform(post("/change")
                        .header("Authorization", "Bearer admin-secret")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\":\"" + "x".repeat(2000) + "\"}"))
                .andExpect(status().isContentTooLarge())
                .andExpect(problem("request-too-large"));
    }

    @Test
    void anUnexpectedFailureIsA500ProblemWithAnIncidentAndNoInternals() throws Exception {
        mvc.perform(get("/fail").header("Authorization", "Bearer admin-secret"))
                .andExpect(status().isInternalServerError())
                .andExpect(problem("internal-error"))
                .andExpect(jsonPath("$.incident").isString())
                .andExpect(content().string(Matchers.not(Matchers.containsString("secret internals"))))
                .andExpect(content().string(Matchers.not(Matchers.containsString("IllegalStateException"))));
    }

    @Test
    void frameworkErrorsGetStableTypes() throws Exception {
        mvc.perform(get("/nothing-here").header("Authorization", "Bearer admin-secret"))
                .andExpect(status().isNotFound())
                .andExpect(problem("not-found"));
        mvc.perform(get("/change").header("Authorization", "Bearer admin-secret"))
                .andExpect(status().isMethodNotAllowed())
                .andExpect(problem("method-not-allowed"));
        mvc.perform(post("/change")
                        .header("Authorization", "Bearer admin-secret")
                        .contentType(MediaType.TEXT_PLAIN)
                        .content("x"))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(problem("unsupported-media-type"));
    }

    private static org.springframework.test.web.servlet.ResultMatcher problem(String type) {
        return result -> {
            content()
                    .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                    .match(result);
            jsonPath("$.type")
                    .value("https://iot-pipeline.dev/problems/" + type)
                    .match(result);
        };
    }
}
