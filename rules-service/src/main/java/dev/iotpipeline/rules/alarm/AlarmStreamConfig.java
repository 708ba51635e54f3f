package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.rules.rule.RuleSet;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafkaStreams;

@Configuration(proxyBeanMethods = false)
@EnableKafkaStreams
class AlarmStreamConfig {

    @Bean
    RuleMetrics ruleMetrics(MeterRegistry registry) {
        return new RuleMetrics(registry);
    }

    @Bean
    KStream<String, AlarmEvent> alarmStream(StreamsBuilder builder, RuleSet rules, RuleMetrics metrics) {
        return AlarmTopology.build(builder, rules, Clock.systemUTC(), metrics, Duration.ofSeconds(1));
    }
}
