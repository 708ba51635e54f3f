package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.events.TopicPartitions;
import dev.iotpipeline.rules.RulesProperties;
import java.time.Clock;
import java.time.Duration;
import org.springframework.kafka.core.ConsumerFactory;
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
    RuleRegistry ruleRegistry(RuleSet rules, KafkaTemplate<String, Object> template, KafkaAdmin admin,
            ConsumerFactory<?, ?> consumers, RulesProperties properties) throws InterruptedException {
        var k = properties.kafka();
        // Streams needs its source topic, and the registry its topic, before KafkaAdmin's own pass would run.
        // Declared here only: a NewTopic bean would be declared again by KafkaAdmin's pass, to the same effect.
        admin.createOrModifyTopics(TopicPartitions.keepExisting(admin.getConfigurationProperties(),
                PipelineTopic.RULES.newTopic(1, k.replicationFactor()),
                PipelineTopic.DATA_UNITS.newTopic(k.partitions(), k.replicationFactor()),
                PipelineTopic.ALARMS.newTopic(k.partitions(), k.replicationFactor(), k.alarmsRetention()),
                PipelineTopic.ALARM_COMMANDS.newTopic(k.partitions(), k.replicationFactor())));
        return new RuleRegistry(rules, template, consumers.getConfigurationProperties(), k.sendTimeout(),
                Clock.systemUTC()).start(Duration.ofSeconds(60));
    }
}
