package dev.iotpipeline.rules.rule;

import dev.iotpipeline.kafka.reader.ReaderLifecycle;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.TopicDeclarations;
import dev.iotpipeline.rules.RulesProperties;
import java.time.Clock;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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
    RuleRegistry ruleRegistry(RuleSet rules, KafkaTemplate<String, Object> template, RulesProperties properties) {
        return new RuleRegistry(rules, template, properties.kafka().sendTimeout(), Clock.systemUTC());
    }

    /**
     * Kafka Streams reads the rules (its global store, read whole before the first data unit), data units and alarm
     * commands: each must exist before it starts, even before its owner started. Rules' own topics get their
     * retention in its KafkaAdmin pass.
     */
    @Bean
    ReaderLifecycle streamsInputs(KafkaAdmin admin, RulesProperties properties) {
        var k = properties.kafka();
        return new ReaderLifecycle(
                "Kafka Streams' input topics",
                k.readerStartTimeout(),
                timeout -> TopicDeclarations.createMissing(
                        admin,
                        timeout,
                        k.partitions(),
                        k.replicationFactor(),
                        PipelineTopic.RULES,
                        PipelineTopic.DATA_UNITS,
                        PipelineTopic.ALARM_COMMANDS));
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
