package dev.iotpipeline.localstack;

import ch.qos.logback.classic.Level;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/** A real PostgreSQL server (zonky's binaries from Maven Central) whose data directory survives restarts. */
final class Postgres implements AutoCloseable {

    static final String DATABASE = "iot";
    static final String USER = "postgres";

    private final EmbeddedPostgres server;
    private final Path dir;
    private final boolean durable;
    // Read from the pid file once per server: the supervisor asks every 200 ms, and a handle also knows its
    // process's start time, so a reused pid is not taken for the server.
    private final Optional<ProcessHandle> postmaster;

    private Postgres(EmbeddedPostgres server, Path dir, boolean durable) {
        this.server = server;
        this.dir = dir;
        this.durable = durable;
        this.postmaster = postmaster(dir);
    }

    /**
     * Starts the server on {@code dir}. Durable means PostgreSQL's own defaults: zonky starts the server
     * with {@code -F} (fsync off) and {@code synchronous_commit=off}, which lose committed rows when the
     * server is killed; only tests that never kill it may ask for that.
     */
    static Postgres start(Path dir, int port, boolean durable) throws IOException, SQLException {
        Files.createDirectories(dir);
        stopStale(dir);
        var durability = durable ? "on" : "off";
        var builder = EmbeddedPostgres.builder()
                .setDataDirectory(dir.toAbsolutePath())
                .setCleanDataDirectory(false)
                .setPort(port)
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("max_connections", "200")
                // Later -c options override zonky's -F, so these are what the server runs with.
                .setServerConfig("fsync", durability)
                .setServerConfig("synchronous_commit", durability)
                .setServerConfig("full_page_writes", durability);
        var server = startWithRetry(builder);
        try (var connection = server.getPostgresDatabase().getConnection();
                var statement = connection.createStatement()) {
            requireOwnServer(statement, dir, port);
            try (var exists = statement.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (exists.next()) {
                    return started(server, dir, durable);
                }
            }
            statement.execute("CREATE DATABASE " + DATABASE);
        }
        return started(server, dir, durable);
    }

    private static Postgres started(EmbeddedPostgres server, Path dir, boolean durable) {
        var postgres = new Postgres(server, dir, durable);
        postgres.pid().ifPresent(pid -> Orphans.reapWhenParentDies(pid, "INT"));
        return postgres;
    }

    /** The server that answered on our port must be the one on our data directory, not another stack's. */
    private static void requireOwnServer(Statement statement, Path dir, int port) throws SQLException, IOException {
        try (var rs = statement.executeQuery("SHOW data_directory")) {
            rs.next();
            if (!Path.of(rs.getString(1)).toRealPath().equals(dir.toRealPath())) {
                throw new IOException("The PostgreSQL on port " + port + " is not ours (data " + rs.getString(1)
                        + "): the port is taken by " + PortOwners.owner(port).orElse("another process"));
            }
        }
    }

    /**
     * After a kill -9 of the postmaster its backends linger for a moment holding the shared memory, and
     * PostgreSQL refuses to start until they are gone: try again for a while rather than fail the restart.
     */
    private static EmbeddedPostgres startWithRetry(EmbeddedPostgres.Builder builder) throws IOException {
        var deadline = Instant.now().plusSeconds(30);
        while (true) {
            try {
                return builder.start();
            } catch (IOException | RuntimeException e) {
                if (Instant.now().isAfter(deadline)) {
                    throw e;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while starting PostgreSQL", interrupted);
                }
            }
        }
    }

    /** A PostgreSQL left running on this data directory by a run that was killed: stop it before starting ours. */
    static void stopStale(Path dir) {
        postmaster(dir)
                .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false))
                .ifPresent(stale -> {
                    LoggerFactory.getLogger(Postgres.class)
                            .warn("Stopping a PostgreSQL left over from an earlier run (pid {})", stale.pid());
                    Orphans.signal(stale.pid(), "INT");
                    stale.onExit()
                            .orTimeout(30, TimeUnit.SECONDS)
                            .exceptionally(t -> null)
                            .join();
                    stale.destroyForcibly();
                });
    }

    /** The process the data directory's pid file names, if it runs. */
    private static Optional<ProcessHandle> postmaster(Path dir) {
        try {
            var pidFile = dir.resolve("postmaster.pid");
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            return Files.readAllLines(pidFile).stream()
                    .findFirst()
                    .map(String::trim)
                    .map(Long::parseLong)
                    .flatMap(ProcessHandle::of);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    Optional<Long> pid() {
        return postmaster.filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
    }

    String jdbcUrl() {
        return jdbcUrl(server.getPort());
    }

    /** The stack's database on {@code port}, as the embedded server's own URL names it. */
    static String jdbcUrl(int port) {
        return "jdbc:postgresql://localhost:%d/%s?user=%s".formatted(port, DATABASE, USER);
    }

    int port() {
        return server.getPort();
    }

    Path dir() {
        return dir;
    }

    /** Starts the server again on the same port and data, after {@link #close} or {@link #kill}. */
    Postgres restart() throws IOException, SQLException {
        return start(dir, server.getPort(), durable);
    }

    /**
     * PostgreSQL as the stack's supervisor watches it; {@code current} is the running server object, which each
     * restart replaces through {@code replace}.
     */
    static Supervisor.Part supervised(Supplier<Postgres> current, Consumer<Postgres> replace) {
        return new Supervisor.Part(
                "postgres",
                () -> current.get().postmaster,
                () -> "its postmaster is gone, how is unknown: it is not a child of this JVM; its data: "
                        + current.get().dir,
                () -> {
                    var dead = current.get();
                    // Releases zonky's hold on the data directory before the new server takes it.
                    dead.kill();
                    replace.accept(dead.restart());
                });
    }

    /** Abrupt death of the postmaster, as on a crash; for fault tests. */
    void kill() {
        postmaster.filter(ProcessHandle::isAlive).ifPresent(p -> {
            Orphans.signal(p.pid(), "KILL");
            p.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(t -> null).join();
        });
        // Releases zonky's lock on the data directory. Its pg_ctl stop finds no server and fails, which zonky logs
        // as an error with a stack trace: expected here, so that logger is silent for the call.
        var zonky = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(EmbeddedPostgres.class);
        var level = zonky.getLevel();
        zonky.setLevel(Level.OFF);
        try {
            server.close();
        } catch (IOException | RuntimeException expected) {
            // the server is already gone
        } finally {
            zonky.setLevel(level);
        }
    }

    @Override
    public void close() throws IOException {
        if (pid().isPresent()) {
            server.close();
        }
    }
}
