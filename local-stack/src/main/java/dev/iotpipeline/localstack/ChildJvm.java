package dev.iotpipeline.localstack;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The start of every command line that runs a child JVM of the stack: this JVM's java, with native access on and
 * this JVM's C2 inlining budget.
 */
final class ChildJvm {

    /**
     * The JIT options a child takes from this JVM when they were set for it: set once for the launcher (in
     * IOT_JAVA_OPTS), the broker and the service processes compile with the same budget, which is how the budget was
     * measured (docs/benchmarks/raw/experiments/c2-inlining.md). A child's own options (IOT_BROKER_JAVA_OPTS,
     * IOT_SERVICE_JAVA_OPTS) come after these, so they can still set their own.
     */
    static final List<String> INHERITED_OPTIONS = List.of("MaxInlineLevel", "InlineSmallCode");

    private ChildJvm() {}

    /**
     * A mutable command line to add options and arguments to. lz4-java and RocksDB load native libraries in the
     * broker and the services; without the flag the JDK warns about it in every child's log. The broker unmaps its
     * index files through {@code sun.misc.Unsafe::invokeCleaner}, which JDK 24+ warns about too unless allowed (the
     * option exists from JDK 23 on; an older JDK would refuse to start with it).
     */
    static List<String> command() {
        return command(Runtime.version().feature(), ChildJvm::setOption);
    }

    /** @param setOption this JVM's value of a VM option if it was set rather than left to the JVM, else empty */
    static List<String> command(int javaFeatureVersion, Function<String, Optional<String>> setOption) {
        var command = new ArrayList<String>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        if (javaFeatureVersion >= 23) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        for (var name : INHERITED_OPTIONS) {
            setOption.apply(name).ifPresent(value -> command.add("-XX:" + name + "=" + value));
        }
        return command;
    }

    /** This JVM's value of {@code name} when a command line, JAVA_TOOL_OPTIONS or a flags file set it. */
    static Optional<String> setOption(String name) {
        var option = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption(name);
        return option.getOrigin() == VMOption.Origin.DEFAULT || option.getOrigin() == VMOption.Origin.ERGONOMIC
                ? Optional.empty()
                : Optional.of(option.getValue());
    }
}
