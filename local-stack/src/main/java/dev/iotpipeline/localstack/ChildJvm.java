package dev.iotpipeline.localstack;

import java.util.ArrayList;
import java.util.List;

/** The start of every command line that runs a child JVM of the stack: this JVM's java, with native access on. */
final class ChildJvm {

    private ChildJvm() {}

    /**
     * A mutable command line to add options and arguments to. lz4-java and RocksDB load native libraries in the
     * broker and the services; without the flag the JDK warns about it in every child's log.
     */
    static List<String> command() {
        var command = new ArrayList<String>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        return command;
    }
}
