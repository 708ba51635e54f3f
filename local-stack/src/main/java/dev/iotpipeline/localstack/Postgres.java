package dev.iotpipeline.localstack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

/** A real PostgreSQL server (zonky's binaries from Maven Central) whose data directory survives restarts. */
final class Postgres implements AutoCloseable {

    static final String DATABASE = "iot";
    static final String USER = "postgres";

    private final EmbeddedPostgres server;
    private final Path dir;

    private Postgres(EmbeddedPostgres server, Path dir) {
        this.server = server;
        this.dir = dir;
    }

    static Postgres start(Path dir, int port) throws IOException, SQLException {
        Files.createDirectories(dir);
        var server = EmbeddedPostgres.builder()
                .setDataDirectory(dir.toAbsolutePath())
                .setCleanDataDirectory(false)
                .setPort(port)
                .setServerConfig("max_connections", "200")
                .start();
        try (var connection = server.getPostgresDatabase().getConnection();
                var statement = connection.createStatement();
                var exists = statement.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
            if (!exists.next()) {
                statement.execute("CREATE DATABASE " + DATABASE);
            }
        }
        return new Postgres(server, dir);
    }

    String jdbcUrl() {
        return server.getJdbcUrl(USER, DATABASE);
    }

    /** Starts the server again on the same port and data, after {@link #close}. */
    Postgres restart() throws IOException, SQLException {
        return start(dir, server.getPort());
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
