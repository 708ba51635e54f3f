package dev.iotpipeline.localstack;

/** Where the services find Kafka and PostgreSQL: the embedded ones, or containers, or anything else. */
public record Infrastructure(String bootstrapServers, String jdbcUrl, String jdbcUser, String jdbcPassword) {}
