package dev.iotpipeline.localstack;

import java.util.ArrayList;
import java.util.List;

/** The start of every command line that runs a child JVM of the stack: this JVM's java, with native access on. */
final class ChildJvm {

    private ChildJvm() {}

    /**
     * A mutable command line to add options and arguments to. lz4-java and RocksDB load native libraries in the
     * broker and the services; without the flag the JDK warns about it in every child's log. The broker unmaps its
     * index files through {@code sun.misc.Unsafe::invokeCleaner}, which JDK 24+ warns about too unless allowed (the
     * option exists from JDK 23 on; an older JDK would refuse to start with it).
     */
    static List<String> command() {
        return command(Runtime.version().feature());
    }

    static List<String> command(int javaFeatureVersion) {
        var command = new ArrayList<String>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        if (javaFeatureVersion >= 23) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        return command;
    }
}
