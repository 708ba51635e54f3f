package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.kafka.reader.ReaderLifecycle;
import dev.iotpipeline.kafka.topic.TopicDeclarations;
import dev.iotpipeline.rules.RulesProperties;
import java.time.Clock;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;

@Configuration(proxyBeanMethods = false)
class RuleConfig {

    @Bean
    RuleSet ruleSet() {
        return new RuleSet();
    }

    @Bean
    RulesWarmup rulesWarmup(RuleSet rules) {
        return new RulesWarmup(rules);
    }

    @Bean
    RuleRegistry ruleRegistry(
            RuleSet rules,
            KafkaTemplate<String, Object> template,
            ConsumerFactory<?, ?> consumers,
            RulesProperties properties) {
        return new RuleRegistry(
                rules,
                template,
                consumers.getConfigurationProperties(),
                properties.kafka().sendTimeout(),
                Clock.systemUTC());
    }

    /** Reads the rules whole before Kafka Streams evaluates the first data unit. */
    @Bean
    ReaderLifecycle ruleRegistryReader(RuleRegistry registry, KafkaAdmin admin, RulesProperties properties) {
        var k = properties.kafka();
        return new ReaderLifecycle("rules registry", k.readerStartTimeout(), timeout -> {
            // The registry's topic and Streams' sources must exist before they are read, even before their owners
            // started; rules' own topics (its KafkaAdmin pass) get their retention there.
            TopicDeclarations.createMissing(
                    admin,
                    k.partitions(),
                    k.replicationFactor(),
                    PipelineTopic.RULES,
                    PipelineTopic.DATA_UNITS,
                    PipelineTopic.ALARM_COMMANDS);
            registry.start(timeout);
            return true;
        });
    }

    /** The topics rules owns, created when missing, so the service also starts against a bare broker. */
    @Bean
    KafkaAdmin.NewTopics rulesTopics(RulesProperties properties, KafkaAdmin admin) {
        var k = properties.kafka();
        return TopicDeclarations.owned(
                admin,
                PipelineTopic.Owner.RULES,
                k.partitions(),
                k.replicationFactor(),
                Map.of(
                        PipelineTopic.ALARMS, k.alarmsRetention(),
                        PipelineTopic.EVENTS_DEAD_LETTER, k.deadLetterRetention()));
    }
}
