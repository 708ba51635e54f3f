# One image per service, chosen by build target (compose does this for you, see docker-compose.yml):
#
#   ./mvnw -q -DskipTests package
#   docker build --target ingest-service -t iot-pipeline/ingest-service .
#
# Built from the exec jars that `./mvnw package` leaves in <module>/target rather than multi-stage: an image runs
# exactly the artifact the tests ran, and building it needs neither Maven nor network access inside Docker.
# .dockerignore sends only those jars and the healthcheck script to the builder.

# The JRE the test suite runs on (Temurin 25); the code itself targets Java 21.
FROM eclipse-temurin:25.0.3_9-jre-noble AS base
# A fixed, unprivileged uid; the Kafka Streams state directory exists in the image so that a named volume
# mounted there starts out owned by that user.
RUN groupadd --system --gid 10001 iot \
 && useradd --system --uid 10001 --gid iot --home-dir /opt/iot --no-create-home --shell /usr/sbin/nologin iot \
 && mkdir -p /opt/iot /var/lib/iot/rules-streams \
 && chown -R iot:iot /var/lib/iot
COPY --chmod=0755 deploy/docker/healthcheck.sh /opt/iot/healthcheck
# Heap as a share of the container's memory limit, so one limit in compose sizes both; a JVM that ran out of
# memory exits and is restarted instead of limping on. A smaller C2 inlining budget halves the compilers' work in
# the first minute after a start (docs/benchmarks/raw/experiments/inline-small-code.md).
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=70 -XX:+ExitOnOutOfMemoryError -XX:InlineSmallCode=1000"
USER iot
WORKDIR /opt/iot
# java is PID 1 (exec form), so docker stop's SIGTERM reaches Spring's graceful shutdown directly.
ENTRYPOINT ["java", "--enable-native-access=ALL-UNNAMED", "-jar", "/opt/iot/app.jar"]

FROM base AS decoder-service
COPY decoder-service/target/decoder-service-*-exec.jar /opt/iot/app.jar
EXPOSE 8081
HEALTHCHECK --interval=10s --timeout=5s --start-period=90s --retries=3 CMD ["/opt/iot/healthcheck", "8081"]

FROM base AS rules-service
COPY rules-service/target/rules-service-*-exec.jar /opt/iot/app.jar
EXPOSE 8082
HEALTHCHECK --interval=10s --timeout=5s --start-period=90s --retries=3 CMD ["/opt/iot/healthcheck", "8082"]

FROM base AS notify-service
COPY notify-service/target/notify-service-*-exec.jar /opt/iot/app.jar
EXPOSE 8083
HEALTHCHECK --interval=10s --timeout=5s --start-period=90s --retries=3 CMD ["/opt/iot/healthcheck", "8083"]

FROM base AS ingest-service
COPY ingest-service/target/ingest-service-*-exec.jar /opt/iot/app.jar
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=90s --retries=3 CMD ["/opt/iot/healthcheck", "8080"]
