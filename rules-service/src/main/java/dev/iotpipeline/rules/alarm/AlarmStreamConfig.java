package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Clock;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafkaStreams;

@Configuration(proxyBeanMethods = false)
@EnableKafkaStreams
class AlarmStreamConfig {

    @Bean
    KStream<String, AlarmEvent> alarmStream(StreamsBuilder builder, RuleSet rules) {
        return AlarmTopology.build(builder, rules, Clock.systemUTC());
    }
}
