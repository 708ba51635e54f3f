package dev.iotpipeline.localstack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds out, before anything starts, whether the ports the stack needs are free, and if not which process
 * holds each one, so the stack refuses to start instead of silently talking to someone else's broker.
 */
final class PortOwners {

    private PortOwners() {}

    /** Throws naming every taken port and its process; {@code ports} maps a purpose (e.g. "kafka") to a port. */
    static void requireFree(Map<String, Integer> ports) {
        var problems = new ArrayList<String>();
        var seen = new LinkedHashMap<Integer, String>();
        ports.forEach((purpose, port) -> {
            if (port == 0) {
                return;
            }
            var clash = seen.putIfAbsent(port, purpose);
            if (clash != null) {
                problems.add("port " + port + " is configured for both " + clash + " and " + purpose);
            } else if (!free(port)) {
                problems.add("port " + port + " (" + purpose + ") is taken by "
                        + owner(port).orElse("a process this user cannot see"));
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Cannot start: " + String.join("; ", problems)
                    + ". Stop that process, or choose other ports (IOT_*_PORT), e.g. for a second stack.");
        }
    }

    static boolean free(int port) {
        for (var address : new InetAddress[] {InetAddress.getLoopbackAddress(), null}) {
            try (var socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(address == null ? new InetSocketAddress(port) : new InetSocketAddress(address, port));
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    /** "pid 1234 (java ... kafka.Kafka ...)" for the process listening on the port, from /proc. */
    static Optional<String> owner(int port) {
        var inodes = listeningInodes(port);
        if (inodes.isEmpty()) {
            return Optional.empty();
        }
        try (var procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> holdsAny(p, inodes))
                    .findFirst()
                    .map(p -> "pid " + p.getFileName() + " (" + commandLine(p) + ")");
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Set<String> listeningInodes(int port) {
        var inodes = new HashSet<String>();
        var hexPort = String.format(Locale.ROOT, ":%04X", port);
        for (var table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            try {
                for (var line : Files.readAllLines(Path.of(table))) {
                    var fields = line.trim().split("\\s+");
                    // fields: sl local_address rem_address st ... inode; 0A is LISTEN
                    if (fields.length > 9 && fields[1].endsWith(hexPort) && fields[3].equals("0A")) {
                        inodes.add("socket:[" + fields[9] + "]");
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or not readable: the caller still reports the port as taken
            }
        }
        return inodes;
    }

    private static boolean holdsAny(Path proc, Set<String> inodes) {
        try (var fds = Files.list(proc.resolve("fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return inodes.contains(Files.readSymbolicLink(fd).toString());
                } catch (IOException e) {
                    return false;
                }
            });
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String commandLine(Path proc) {
        try {
            var line = new String(Files.readAllBytes(proc.resolve("cmdline")))
                    .replace('\0', ' ')
                    .trim();
            return line.length() > 160 ? line.substring(0, 160) + "..." : line;
        } catch (IOException e) {
            return "?";
        }
    }
}
