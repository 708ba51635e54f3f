package dev.iotpipeline.localstack;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The process launcher of the scripts: {@code ./pipeline run [--log FILE] --then COMMAND...} starts the stack
 * (within IOT_START_TIMEOUT seconds, 300 by default), runs COMMAND with the stack's URLs and credentials in its
 * environment, stops the stack and exits with COMMAND's exit code. With {@code --log FILE} the stack's own output
 * goes to FILE and the console is COMMAND's; a stack that does not start ends the run with the reason and the
 * tail of that log.
 */
final class StackLauncher {

    /** What follows the options of the run command: {@code --processes}, {@code --log FILE}, {@code --then CMD...}. */
    record Options(boolean processes, Path log, List<String> then) {

        static Options parse(String... args) {
            boolean processes = false;
            Path log = null;
            List<String> then = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--processes" -> processes = true;
                    case "--log" -> log = Path.of(args[++i]).toAbsolutePath();
                    case "--then" -> {
                        then = List.of(Arrays.copyOfRange(args, i + 1, args.length));
                        i = args.length;
                    }
                    default ->
                        throw new IllegalArgumentException("unknown option " + args[i]
                                + " (usage: [--processes] [--log FILE] [--then COMMAND...])");
                }
            }
            if (then != null && then.isEmpty()) {
                throw new IllegalArgumentException("--then needs a command");
            }
            return new Options(processes, log, then);
        }
    }

    /**
     * The console as it was before {@link #logTo} (class initialization precedes it): where COMMAND's output and the
     * launcher's own messages go.
     */
    static final PrintStream CONSOLE = System.err;

    private StackLauncher() {}

    /** Sends everything this JVM prints (the services' logs, the banner) to {@code log} instead of the console. */
    static void logTo(Path log) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        var stream = new PrintStream(new BufferedOutputStream(new FileOutputStream(log.toFile())), true);
        System.setOut(stream);
        System.setErr(stream);
    }

    /**
     * Runs {@code start} and returns what it returns, or, when it fails or takes longer than {@code timeout}, prints
     * why (the exception or where the start hangs, and the tail of {@code log}) and exits with 1. Whatever the start
     * had launched as processes dies with this JVM (their watchdogs, see {@link Orphans}).
     */
    static <T> T startWithin(Duration timeout, Callable<T> start, Path log) {
        var task = new FutureTask<>(start);
        var thread = new Thread(task, "local-stack-start");
        thread.start();
        String reason;
        try {
            return task.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            var where = new StringBuilder();
            Arrays.stream(thread.getStackTrace())
                    .limit(20)
                    .forEach(frame -> where.append("\n    at ").append(frame));
            reason = "The stack did not start within " + timeout.toSeconds() + " s (IOT_START_TIMEOUT); it was at:"
                    + where;
            thread.interrupt();
        } catch (ExecutionException e) {
            var trace = new StringWriter();
            e.getCause().printStackTrace(new PrintWriter(trace));
            reason = "The stack failed to start: " + trace;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reason = "Interrupted while the stack was starting";
        }
        System.out.println(reason);
        System.out.flush();
        CONSOLE.println(tail(log, 50));
        CONSOLE.println("[launcher] " + reason.lines().findFirst().orElse(reason));
        System.exit(1);
        throw new IllegalStateException("unreachable");
    }

    /** The last {@code lines} lines of the log, or nothing when output is not logged to a file. */
    static String tail(Path log, int lines) {
        if (log == null || !Files.exists(log)) {
            return "";
        }
        try {
            var all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(could not read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** The environment the k6 suites and bench scripts read the stack from. */
    static Map<String, String> environment(LocalStack.Settings settings) {
        var url = (Function<Service, String>) s -> "http://127.0.0.1:" + settings.port(s);
        var env = new LinkedHashMap<String, String>();
        env.put("INGEST_URL", url.apply(Service.INGEST));
        env.put("DECODER_URL", url.apply(Service.DECODER));
        env.put("RULES_URL", url.apply(Service.RULES));
        env.put("NOTIFY_URL", url.apply(Service.NOTIFY));
        env.put("WS_URL", url.apply(Service.NOTIFY).replaceFirst("^http", "ws") + "/ws");
        env.put("DEVICE_KEY", settings.deviceKey());
        env.put("DASHBOARD_TOKEN", settings.dashboardToken());
        env.put("ADMIN_TOKEN", settings.adminToken());
        return env;
    }

    /**
     * Runs {@code command} on this JVM's console with {@code environment} added to its own, and returns its exit
     * code (127 when it cannot be started). A stop of this JVM (Ctrl-C, kill) stops the command too.
     */
    static int run(List<String> command, Map<String, String> environment) {
        var builder = new ProcessBuilder(new ArrayList<>(command)).inheritIO();
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            CONSOLE.println("[launcher] cannot run " + String.join(" ", command) + ": " + e.getMessage());
            return 127;
        }
        var hook = new Thread(
                () -> {
                    process.descendants().forEach(ProcessHandle::destroy);
                    process.destroy();
                },
                "launcher-stop-command");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            int code = process.waitFor();
            Runtime.getRuntime().removeShutdownHook(hook);
            return code;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            hook.run();
            return 130;
        }
    }
}
