import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Stack aggregation of a JFR recording with nothing but the JDK (jdk.jfr.consumer), for bench/profile.sh.
 *
 * <pre>
 * java bench/JfrFolded.java [options] REC.jfr > out
 *   --events E1,E2     event types to read (default jdk.ExecutionSample); any event with a stack trace works,
 *                      e.g. jdk.CPUTimeSample, jdk.NativeMethodSample, jdk.ThreadPark, jdk.SocketRead
 *   --weight W         count (default: one per event), duration (milliseconds of the event's duration, for
 *                      the blocking events: jdk.ThreadPark, jdk.JavaMonitorWait, jdk.JavaMonitorEnter, ...) or
 *                      the name of a numeric field (weight: the bytes a jdk.ObjectAllocationSample stands for)
 *   --thread-root      the (normalised) thread name as the root frame of every stack
 *   --exclude-idle     leaves out the stacks of threads waiting for work (a pool thread in getTask, a ForkJoin
 *                      worker in awaitWork, Tomcat's TaskQueue.take, StandardServer.await, a consumer's heartbeat
 *                      thread, ...): what is left is waiting on the way of the work
 *   --threads REGEX    only the events of threads whose normalised name matches REGEX (e.g. 'tomcat-handler-N')
 *   --event-leaf       the event type (and, for jdk.ThreadPark, the parked-on class) as the leaf frame
 *   --folded           (default) collapsed stacks, root first: "frame;frame;frame weight", one per line, for any
 *                      flame graph tool (flamegraph.pl, speedscope, inferno, ...)
 *   --by-package       shares of the weight: by component (library) of the top non-JDK frame ("self") and of any
 *                      frame ("inclusive"), by top-level package of the top non-JDK frame, by pipeline service
 *                      (the outermost dev.iotpipeline.{ingest,decoder,rules,notify} frame), by thread pool, by
 *                      event (with what a park or monitor wait waited on) and by top non-JDK method
 *   --svg TITLE        a self-contained SVG flame graph (no script; hover a frame for its name and share)
 *   --cpu-load         mean and maximum of jdk.CPULoad: the JVM's user and system CPU and the machine's total
 * </pre>
 * Thread names are normalised: UUIDs become UUID and numbers N (pools fold together), but http-nio-PORT keeps its port.
 */
public class JfrFolded {

    /** Components, first match wins: a prefix of the frame's class name and the component it stands for. */
    static final String[][] COMPONENTS = {
        {"org.apache.kafka.streams.", "Kafka Streams"},
        {"org.apache.kafka.clients.", "Kafka client"},
        {"org.apache.kafka.common.", "Kafka common (network, protocol, records)"},
        {"kafka.", "Kafka broker"},
        {"org.apache.kafka.", "Kafka broker"},
        {"org.springframework.kafka.", "Spring Kafka"},
        {"com.fasterxml.jackson.", "Jackson"},
        {"tools.jackson.", "Jackson"},
        {"org.apache.tomcat.", "Tomcat / HTTP"},
        {"org.apache.coyote.", "Tomcat / HTTP"},
        {"org.apache.catalina.", "Tomcat / HTTP"},
        {"jakarta.servlet.", "Tomcat / HTTP"},
        {"org.springframework.security.", "Spring Security"},
        {"io.micrometer.", "Micrometer / observation / tracing"},
        {"brave.", "Micrometer / observation / tracing"},
        {"zipkin2.", "Micrometer / observation / tracing"},
        {"io.prometheus.", "Micrometer / observation / tracing"},
        {"org.springframework.boot.actuate.", "Micrometer / observation / tracing"},
        {"org.springframework.web.socket.", "Spring WebSocket"},
        {"org.springframework.web.", "Spring MVC / web"},
        {"org.springframework.http.", "Spring MVC / web"},
        {"org.springframework.jdbc.", "Spring JDBC / transactions"},
        {"org.springframework.transaction.", "Spring JDBC / transactions"},
        {"org.springframework.", "Spring (core, AOP, context, ...)"},
        {"org.mozilla.javascript.", "Rhino"},
        {"org.postgresql.", "PostgreSQL JDBC"},
        {"com.zaxxer.hikari.", "HikariCP"},
        {"org.flywaydb.", "Flyway"},
        {"ch.qos.logback.", "logging"},
        {"org.slf4j.", "logging"},
        {"org.apache.logging.", "logging"},
        {"org.apache.log4j.", "logging"},
        {"org.rocksdb.", "RocksDB"},
        {"io.github.resilience4j.", "Resilience4j"},
        {"com.networknt.", "JSON schema validator"},
        {"org.hibernate.validator.", "Bean validation"},
        {"com.fasterxml.uuid.", "UUID generator"},
        {"com.github.luben.zstd.", "compression"},
        {"org.xerial.snappy.", "compression"},
        {"net.jpountz.", "compression"},
        {"io.netty.", "Netty"},
        {"scala.", "Scala runtime (broker)"},
        {"com.yammer.metrics.", "Kafka broker"},
        {"dev.iotpipeline.", "pipeline code (dev.iotpipeline)"},
        {"java.", "JDK"},
        {"javax.", "JDK"},
        {"jdk.", "JDK"},
        {"sun.", "JDK"},
        {"com.sun.", "JDK"},
    };
    /** Frames of a thread that waits for work (an idle pool thread, a server's await, a heartbeat loop): --exclude-idle. */
    static final List<String> IDLE = List.of(
        "java.util.concurrent.ThreadPoolExecutor.getTask",
        "java.util.concurrent.ForkJoinPool.awaitWork",
        "java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take",
        "org.apache.tomcat.util.threads.TaskQueue.take",
        "org.apache.tomcat.util.threads.TaskQueue.poll",
        "org.apache.catalina.core.StandardServer.await",
        "org.apache.kafka.clients.consumer.internals.AbstractCoordinator$HeartbeatThread.run",
        "org.apache.tomcat.websocket.BackgroundProcessManager$WsBackgroundThread.run",
        "java.lang.ProcessHandleImpl.waitForProcessExit0",
        "jdk.internal.ref.CleanerImpl.run",
        "java.util.concurrent.DelayScheduler.loop");
    static final Pattern SERVICE = Pattern.compile("dev\\.iotpipeline\\.(ingest|decoder|rules|notify)\\..*");
    static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    static final Pattern NUMBER = Pattern.compile("(?<!nio-)(?<![0-9])[0-9]+"); // http-nio-PORT keeps its port

    record Sample(List<String> frames, String thread, String event, String leaf, double weight, boolean truncated) {}

    public static void main(String[] args) throws IOException {
        Set<String> events = new HashSet<>(Set.of("jdk.ExecutionSample"));
        String mode = "folded", title = "";
        boolean threadRoot = false, eventLeaf = false, excludeIdle = false;
        Pattern threads = null;
        String weight = "count";
        Path file = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--events" -> events = new HashSet<>(List.of(args[++i].split(",")));
                case "--weight" -> weight = args[++i];
                case "--thread-root" -> threadRoot = true;
                case "--event-leaf" -> eventLeaf = true;
                case "--exclude-idle" -> excludeIdle = true;
                case "--threads" -> threads = Pattern.compile(args[++i]);
                case "--folded" -> mode = "folded";
                case "--by-package" -> mode = "by-package";
                case "--cpu-load" -> mode = "cpu-load";
                case "--svg" -> { mode = "svg"; title = args[++i]; }
                default -> {
                    if (args[i].startsWith("--")) usage("unknown option " + args[i]);
                    file = Path.of(args[i]);
                }
            }
        }
        if (file == null) usage("no recording given");
        if (mode.equals("cpu-load")) { cpuLoad(file); return; }
        String unit = switch (weight) { case "count" -> "samples"; case "duration" -> "ms"; case "weight" -> "bytes"; default -> weight; };

        List<Sample> samples = new ArrayList<>();
        try (var recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent e = recording.readEvent();
                String type = e.getEventType().getName();
                if (!events.contains(type)) continue;
                RecordedStackTrace st = e.getStackTrace();
                List<String> frames = new ArrayList<>();
                if (st != null) {
                    for (RecordedFrame f : st.getFrames()) { // top (innermost) first
                        if (f.getMethod() == null) continue;
                        String cls = f.getMethod().getType() == null ? "?" : f.getMethod().getType().getName();
                        frames.add((cls + "." + f.getMethod().getName()).replace(';', ':').replace(' ', '_'));
                    }
                }
                if (excludeIdle && frames.stream().anyMatch(IDLE::contains)) continue;
                String thread = threadName(e);
                if (threads != null && !threads.matcher(thread).matches()) continue;
                double w = switch (weight) {
                    case "count" -> 1;
                    case "duration" -> e.getDuration().toNanos() / 1e6;
                    default -> e.hasField(weight) ? ((Number) e.getValue(weight)).doubleValue() : 0;
                };
                String leaf = type.replace("jdk.", "");
                if (type.equals("jdk.ThreadPark") && e.hasField("parkedClass") && e.getValue("parkedClass") != null) {
                    leaf += " on " + e.getClass("parkedClass").getName();
                } else if (type.equals("jdk.JavaMonitorWait") || type.equals("jdk.JavaMonitorEnter")) {
                    if (e.hasField("monitorClass") && e.getValue("monitorClass") != null)
                        leaf += " on " + e.getClass("monitorClass").getName();
                }
                samples.add(new Sample(frames, thread, type, "[" + leaf + "]", w, st != null && st.isTruncated()));
            }
        }
        var out = new PrintStream(System.out, false, java.nio.charset.StandardCharsets.UTF_8);
        switch (mode) {
            case "folded" -> folded(samples, threadRoot, eventLeaf).forEach((k, v) -> out.println(k + " " + Math.round(v)));
            case "by-package" -> byPackage(samples, events, unit, file, out);
            case "svg" -> svg(folded(samples, threadRoot, eventLeaf), title, unit, out);
            default -> throw new IllegalStateException(mode);
        }
        out.flush();
    }

    /** Mean and maximum of jdk.CPULoad (the JVM's user and system CPU, the machine's total), in % of all cores. */
    static void cpuLoad(Path file) throws IOException {
        String[] fields = {"jvmUser", "jvmSystem", "machineTotal"};
        double[] sum = new double[3], max = new double[3];
        int n = 0;
        try (var recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent e = recording.readEvent();
                if (!e.getEventType().getName().equals("jdk.CPULoad")) continue;
                n++;
                for (int i = 0; i < 3; i++) {
                    double v = e.getFloat(fields[i]) * 100;
                    sum[i] += v;
                    max[i] = Math.max(max[i], v);
                }
            }
        }
        System.out.printf("jdk.CPULoad, %d samples (one a second), %% of all cores of the machine:%n", n);
        for (int i = 0; i < 3; i++)
            System.out.printf("  %-13s mean %5.1f %%  max %5.1f %%%n", fields[i], n == 0 ? 0 : sum[i] / n, max[i]);
        System.out.printf("  %-13s mean %5.1f %%%n", "other than JVM", n == 0 ? 0 : (sum[2] - sum[0] - sum[1]) / n);
    }

    static void usage(String why) {
        System.err.println(why + "\nusage: java bench/JfrFolded.java [--events E1,E2] [--weight count|duration|FIELD] "
            + "[--thread-root] [--event-leaf] [--exclude-idle] [--threads REGEX] [--folded|--by-package|--svg TITLE|--cpu-load] REC.jfr");
        System.exit(2);
    }

    static String threadName(RecordedEvent e) {
        RecordedThread t = null;
        if (e.hasField("sampledThread")) t = e.getThread("sampledThread");
        if (t == null && e.hasField("eventThread")) t = e.getThread("eventThread");
        if (t == null) t = e.getThread();
        String name = t == null ? "?" : t.getJavaName() != null ? t.getJavaName() : t.getOSName();
        return name == null ? "?" : NUMBER.matcher(UUID.matcher(name).replaceAll("UUID")).replaceAll("N");
    }

    /** The service a thread's name points to, for stacks without a service frame (e.g. a Kafka client's own threads). */
    static String serviceOfThread(String thread) {
        for (String service : List.of("ingest", "decoder", "rules", "notify"))
            if (thread.contains(service)) return service + " (by thread name)";
        if (thread.startsWith("tail-data-units") || thread.startsWith("tail-alarms")) return "notify (by thread name: live feed)";
        if (thread.startsWith("tomcat-handler") || thread.startsWith("http-nio"))
            return "HTTP threads, no service frame (Tomcat, filters, security: mostly ingest's POSTs)";
        return "(no service frame or name)";
    }

    static String component(String frame) {
        for (String[] c : COMPONENTS) if (frame.startsWith(c[0])) return c[1];
        return "other: " + pkg(frame, 2);
    }

    /** The first n segments of the frame's package. */
    static String pkg(String frame, int n) {
        String[] parts = frame.split("\\.");
        int segments = Math.min(n, Math.max(1, parts.length - 2)); // the last two are class and method
        return String.join(".", List.of(parts).subList(0, segments));
    }

    static boolean isJdk(String frame) {
        return component(frame).equals("JDK");
    }

    static Map<String, Double> folded(List<Sample> samples, boolean threadRoot, boolean eventLeaf) {
        Map<String, Double> stacks = new TreeMap<>();
        for (Sample s : samples) {
            var sb = new StringBuilder();
            if (threadRoot) sb.append('[').append(s.thread().replace(';', ':').replace(' ', '_')).append(']');
            if (s.truncated()) sb.append(sb.isEmpty() ? "" : ";").append("[truncated]");
            for (int i = s.frames().size() - 1; i >= 0; i--) sb.append(sb.isEmpty() ? "" : ";").append(s.frames().get(i));
            if (eventLeaf) sb.append(sb.isEmpty() ? "" : ";").append(s.leaf().replace(' ', '_'));
            if (sb.isEmpty()) sb.append("[no stack]");
            stacks.merge(sb.toString(), s.weight(), Double::sum);
        }
        return stacks;
    }

    static void byPackage(List<Sample> samples, Set<String> events, String unit, Path file, PrintStream out) {
        double total = samples.stream().mapToDouble(Sample::weight).sum();
        long truncated = samples.stream().filter(Sample::truncated).count();
        out.printf("%s: %s, %,d events, total weight %,.0f %s (%d stacks truncated at the recording's stack depth)%n%n",
            file.getFileName(), String.join(",", new java.util.TreeSet<>(events)), samples.size(), total,
            unit, truncated);
        Map<String, Double> self = new HashMap<>(), inclusive = new HashMap<>(), packages = new HashMap<>(),
            services = new HashMap<>(), threads = new HashMap<>(), topMethods = new HashMap<>(), leaves = new HashMap<>();
        for (Sample s : samples) {
            String top = null;
            for (String f : s.frames()) if (!isJdk(f)) { top = f; break; }
            self.merge(top == null ? "JDK only (no library frame on the stack)" : component(top), s.weight(), Double::sum);
            packages.merge(top == null ? "(JDK only)" : pkg(top, 3), s.weight(), Double::sum);
            if (top != null) topMethods.merge(top, s.weight(), Double::sum);
            Set<String> seen = new HashSet<>();
            for (String f : s.frames()) seen.add(component(f));
            for (String c : seen) inclusive.merge(c, s.weight(), Double::sum);
            String service = null;
            for (String f : s.frames()) { var m = SERVICE.matcher(f); if (m.matches()) service = m.group(1); } // outermost wins
            if (service == null) service = serviceOfThread(s.thread());
            services.merge(service, s.weight(), Double::sum);
            threads.merge(s.thread(), s.weight(), Double::sum);
            leaves.merge(s.leaf(), s.weight(), Double::sum);
        }
        if (leaves.size() > 1) table(out, "By event (and what it waited on)", leaves, total, 25);
        table(out, "By component of the top non-JDK frame (self: the library the thread was in, JDK code it called included)", self, total, 40);
        table(out, "By component of any frame (inclusive: samples with that component anywhere on the stack; sums exceed 100 %)", inclusive, total, 40);
        table(out, "By package (3 segments) of the top non-JDK frame", packages, total, 30);
        table(out, "By pipeline service (the outermost dev.iotpipeline.{ingest,decoder,rules,notify} frame, else a hint in the thread's name)", services, total, 15);
        table(out, "By thread (numbers folded to N, but not the port of http-nio-PORT)", threads, total, 30);
        table(out, "Top non-JDK methods (the top non-JDK frame)", topMethods, total, 30);
    }

    static void table(PrintStream out, String title, Map<String, Double> rows, double total, int limit) {
        out.println(title);
        out.println("-".repeat(Math.min(title.length(), 110)));
        var sorted = new ArrayList<>(rows.entrySet());
        sorted.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        double shown = 0;
        for (var r : sorted.subList(0, Math.min(limit, sorted.size()))) {
            out.printf("%6.1f %%  %12.0f  %s%n", 100 * r.getValue() / total, r.getValue(), r.getKey());
            shown += r.getValue();
        }
        if (sorted.size() > limit) out.printf("%6.1f %%  %12.0f  (%d more)%n", 100 * (total - shown) / total, total - shown, sorted.size() - limit);
        out.println();
    }

    // ---- SVG flame graph ------------------------------------------------------------------------------------

    static final class Node {
        final String name;
        double weight;
        final Map<String, Node> children = new LinkedHashMap<>();
        Node(String name) { this.name = name; }
    }

    static void svg(Map<String, Double> stacks, String title, String unit, PrintStream out) {
        Node root = new Node("all");
        for (var e : stacks.entrySet()) {
            Node n = root;
            n.weight += e.getValue();
            for (String f : e.getKey().split(";")) {
                n = n.children.computeIfAbsent(f, Node::new);
                n.weight += e.getValue();
            }
        }
        int depth = depth(root), width = 1200, rowH = 16, top = 40;
        int height = top + (depth + 1) * rowH + 10;
        out.printf("<?xml version=\"1.0\" standalone=\"no\"?>%n<svg version=\"1.1\" width=\"%d\" height=\"%d\" "
            + "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"Verdana, sans-serif\" font-size=\"11\">%n", width, height);
        out.printf("<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f0\"/>%n", width, height);
        out.printf("<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"15\">%s</text>%n", width / 2, esc(title));
        out.printf("<text x=\"10\" y=\"34\" font-size=\"10\" fill=\"#555\">%,.0f %s; width = share; hover a frame for its name</text>%n",
            root.weight, unit);
        draw(out, root, 10, width - 20, depth, 0, root.weight, height - 10 - rowH, rowH, unit);
        out.println("</svg>");
    }

    static int depth(Node n) {
        int d = 0;
        for (Node c : n.children.values()) d = Math.max(d, depth(c));
        return d + 1;
    }

    static void draw(PrintStream out, Node n, double x, double w, int maxDepth, int level, double total, int y0, int rowH, String unit) {
        if (w < 1) return; // narrower than a pixel: left out (keeps the file small)
        int y = y0 - level * rowH;
        String comp = level == 0 ? "all" : component(n.name);
        int hash = comp.hashCode();
        int r = 200 + Math.floorMod(hash, 55), g = 80 + Math.floorMod(hash >> 8, 150), b = 40 + Math.floorMod(hash >> 16, 60);
        if (comp.equals("JDK")) { r = 170; g = 170; b = 200; }
        String label = String.format("%s (%,.0f %s, %.2f %%)", n.name, n.weight, unit, 100 * n.weight / total);
        out.printf("<g><title>%s</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>",
            esc(label), x, y, w, rowH - 1, r, g, b);
        int chars = (int) (w / 7);
        if (chars >= 3) {
            String text = n.name.length() <= chars ? n.name : n.name.substring(0, Math.max(1, chars - 2)) + "..";
            out.printf("<text x=\"%.1f\" y=\"%d\">%s</text>", x + 3, y + rowH - 4, esc(text));
        }
        out.println("</g>");
        var children = new ArrayList<>(n.children.values());
        children.sort(Comparator.comparing(c -> c.name));
        double cx = x;
        for (Node c : children) {
            double cw = w * c.weight / n.weight;
            draw(out, c, cx, cw, maxDepth, level + 1, total, y0, rowH, unit);
            cx += cw;
        }
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
