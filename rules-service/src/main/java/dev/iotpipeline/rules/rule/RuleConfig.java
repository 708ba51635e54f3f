package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.kafka.reader.ReaderLifecycle;
import dev.iotpipeline.kafka.topic.TopicPartitions;
import dev.iotpipeline.rules.RulesProperties;
import java.time.Clock;
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
            // Streams needs its source topic, and the registry its topic, before KafkaAdmin's own pass would run.
            // Declared here only: a NewTopic bean would be declared again by KafkaAdmin's pass, to the same effect.
            admin.createOrModifyTopics(TopicPartitions.keepExisting(
                    admin.getConfigurationProperties(),
                    PipelineTopic.RULES.newTopic(1, k.replicationFactor()),
                    PipelineTopic.DATA_UNITS.newTopic(k.partitions(), k.replicationFactor()),
                    PipelineTopic.ALARMS.newTopic(k.partitions(), k.replicationFactor(), k.alarmsRetention()),
                    PipelineTopic.ALARM_COMMANDS.newTopic(k.partitions(), k.replicationFactor())));
            registry.start(timeout);
            return true;
        });
    }
}
