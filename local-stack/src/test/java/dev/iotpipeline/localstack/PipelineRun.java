package dev.iotpipeline.localstack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code ./pipeline run} as an operator starts it, on a data directory and free ports of its own, console to a file. */
final class PipelineRun {

    private PipelineRun() {}

    /** A free port for each of the stack's IOT_*_PORT variables, by the variable's middle ("INGEST", "KAFKA", ...). */
    static Map<String, Integer> freePorts() {
        var ports = new LinkedHashMap<String, Integer>();
        for (var name : List.of("INGEST", "DECODER", "RULES", "NOTIFY", "KAFKA", "KAFKA_CONTROLLER", "POSTGRES")) {
            ports.put(name, EmbeddedStack.freePort());
        }
        return ports;
    }

    /**
     * {@code ./pipeline run --no-build ARGS} with data under {@code data}, the given ports, this JVM's JDK and no other
     * IOT_ setting than the JVM options the build gives the tests' processes; its output, errors included, goes to
     * {@code console}.
     */
    static ProcessBuilder command(Path data, Map<String, Integer> ports, Path console, String... args) {
        var run = new ArrayList<>(List.of("run", "--no-build"));
        run.addAll(List.of(args));
        return pipeline(data, ports, console, run.toArray(String[]::new));
    }

    /** {@code ./pipeline COMMAND...} in the environment {@link #command} gives a run on the same data and ports. */
    static ProcessBuilder pipeline(Path data, Map<String, Integer> ports, Path console, String... commandAndArgs) {
        // Started from local-stack/, whose parent is the repository.
        var root = Path.of("").toAbsolutePath().getParent();
        var command = new ArrayList<>(List.of("bash", root.resolve("pipeline").toString()));
        command.addAll(List.of(commandAndArgs));
        var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile());
        var env = builder.environment();
        env.keySet().removeIf(PipelineRun::notForTheTests);
        env.put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
        env.put("IOT_DATA_DIR", data.resolve("stack").toString());
        ports.forEach((name, port) -> env.put("IOT_" + name + "_PORT", Integer.toString(port)));
        return builder;
    }

    /**
     * Whether a variable of this JVM's environment is left out of a test's {@code ./pipeline}: every IOT_ setting but
     * the JVM options the build gives the processes of the tests (the root pom's {@code test.jit.options}).
     */
    private static boolean notForTheTests(String name) {
        return name.startsWith("IOT_") && !name.endsWith("_JAVA_OPTS");
    }
}
