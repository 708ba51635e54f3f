package dev.iotpipeline.rules.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.iotpipeline.web.PipelineWebConfiguration;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentMatchers;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The rule API in a web slice with the real controller, registry, routes and problem layer, and a mocked Kafka
 * standing in for the rules topic: a rule is written and applied before the answer, a bad one is refused with where
 * it is wrong, and only the admin token changes rules.
 */
@WebMvcTest(
        properties = {
            "iot.security.admin-tokens[0]=admin-secret",
            "iot.security.dashboard-tokens[0].token=dash-secret",
            "iot.security.dashboard-tokens[0].channels[0]=north"
        })
class RuleApiTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({PipelineWebConfiguration.class, RuleController.class})
    // RulesRoutes is package-private in another package: scanned by name rather than imported.
    @ComponentScan(basePackages = "dev.iotpipeline.rules.access")
    static class Service {

        @Bean
        RuleSet ruleSet() {
            return new RuleSet();
        }

        /** The slice has no broker and no topology: the registry applies its own writes. */
        @Bean
        RuleRegistry ruleRegistry(RuleSet rules, KafkaOperations<String, Object> kafka) {
            return new RuleRegistry(rules, kafka, Duration.ofSeconds(5), Clock.systemUTC());
        }
    }

    /** What the registry wrote to the rules topic, in order. */
    private final List<ProducerRecord<String, Object>> sent = new ArrayList<>();

    @Autowired
    MockMvc mvc;

    @MockitoBean
    KafkaOperations<String, Object> kafka;

    @BeforeEach
    void acknowledgeEveryWrite() {
        when(kafka.send(ArgumentMatchers.<ProducerRecord<String, Object>>any())).thenAnswer(call -> {
            sent.add(call.getArgument(0));
            return CompletableFuture.completedFuture(null);
        });
    }

    private ResultActions create(String body, String token) throws Exception {
        return mvc.perform(post("/rules")
                .header("Authorization", "Bearer " + token)
                .contentType(MediaType.APPLICATION_JSON)
                .content(body));
    }

    @Test
    void shouldWriteARuleAndServeItAtOnce() throws Exception {
        var created = create(
                        "{\"name\":\"hot\",\"condition\":\"temperature > 30\",\"severity\":\"CRITICAL\"}",
                        "admin-secret")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.name").value("hot"))
                .andReturn()
                .getResponse()
                .getContentAsString();
        var id = dev.iotpipeline.events.EventJson.mapper()
                .readTree(created)
                .get("id")
                .asString();

        assertThat(sent).singleElement().satisfies(record -> {
            assertThat(record.topic()).isEqualTo("rules");
            assertThat(record.key()).isEqualTo(id);
        });
        mvc.perform(get("/rules/" + id).header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.condition").value("temperature > 30"));

        mvc.perform(delete("/rules/" + id).header("Authorization", "Bearer admin-secret"))
                .andExpect(status().isNoContent());
        assertThat(sent).last().satisfies(record -> assertThat(record.value()).isNull());
        mvc.perform(get("/rules/" + id).header("Authorization", "Bearer dash-secret"))
                .andExpect(status().isNotFound());
    }

    @Test
    void shouldRefuseABadRuleWithWhereItIsWrongAndWriteNothing() throws Exception {
        create("{\"name\":\"hot\",\"condition\":\"temperature >\"}", "admin-secret")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.field").value("condition"));
        create("{\"name\":\"hot\",\"condition\":\"T(java.lang.Runtime).getRuntime()\"}", "admin-secret")
                .andExpect(status().isBadRequest());
        create("{\"name\":\"hot\",\"condition\":\"temperature > 30\"}", "dash-secret")
                .andExpect(status().isForbidden());
        assertThat(sent).isEmpty();
    }

    @Test
    void shouldRefuseARuleWhoseFilterNamesWhatNoUplinkCanCarry() throws Exception {
        create(
                        "{\"name\":\"hot\",\"filter\":{\"channel\":\"Factory 1\"},\"condition\":\"temperature > 30\"}",
                        "admin-secret")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andExpect(jsonPath("$.field").value("filter.channel"));
        create(
                        "{\"name\":\"hot\",\"filter\":{\"deviceType\":\"EM300\"},\"condition\":\"temperature > 30\"}",
                        "admin-secret")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("filter.deviceType"));
        create(
                        "{\"name\":\"hot\",\"filter\":{\"deviceId\":\"dev 1\"},\"condition\":\"temperature > 30\"}",
                        "admin-secret")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("filter.deviceId"));
        assertThat(sent).isEmpty();
    }
}
