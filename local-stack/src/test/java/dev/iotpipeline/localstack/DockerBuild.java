package dev.iotpipeline.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Dockerfile's stages and what each copies from the build context, and the {@code .dockerignore} rules that
 * decide what of the context the builder gets: enough to tell, without a Docker engine, whether a build would find
 * its inputs.
 */
final class DockerBuild {

    /** One {@code FROM ... [AS name]} stage and the instructions this check needs. */
    record Stage(
            String name,
            String from,
            List<Copy> copies,
            List<Integer> exposed,
            String user,
            List<String> entrypoint,
            List<String> healthcheck) {}

    /** A COPY from the build context (not {@code --from} another stage): its sources and its destination. */
    record Copy(List<String> sources, String destination) {}

    private final Map<String, Stage> stages;

    private DockerBuild(Map<String, Stage> stages) {
        this.stages = stages;
    }

    static DockerBuild read(Path dockerfile) {
        var stages = new LinkedHashMap<String, Stage>();
        String name = null;
        String from = null;
        List<Copy> copies = null;
        List<Integer> exposed = null;
        String user = null;
        List<String> entrypoint = null;
        List<String> healthcheck = null;
        for (var instruction : instructions(dockerfile)) {
            var words = List.of(instruction.split("\\s+"));
            var keyword = words.getFirst().toUpperCase();
            if (keyword.equals("FROM")) {
                if (from != null) {
                    stages.put(name, new Stage(name, from, copies, exposed, user, entrypoint, healthcheck));
                }
                from = words.get(1);
                name = words.size() > 3 && words.get(2).equalsIgnoreCase("AS")
                        ? words.get(3)
                        : "stage-" + stages.size();
                copies = new ArrayList<>();
                exposed = new ArrayList<>();
                user = null;
                entrypoint = null;
                healthcheck = null;
            } else if (keyword.equals("COPY") || keyword.equals("ADD")) {
                var arguments = words.subList(1, words.size()).stream()
                        .filter(w -> !w.startsWith("--"))
                        .toList();
                if (words.stream().noneMatch(w -> w.startsWith("--from="))) {
                    copies.add(new Copy(arguments.subList(0, arguments.size() - 1), arguments.getLast()));
                }
            } else if (keyword.equals("EXPOSE")) {
                for (var port : words.subList(1, words.size())) {
                    exposed.add(Integer.parseInt(port.replaceFirst("/.*", "")));
                }
            } else if (keyword.equals("USER")) {
                user = words.get(1);
            } else if (keyword.equals("ENTRYPOINT")) {
                entrypoint = execForm(instruction.substring("ENTRYPOINT".length()));
            } else if (keyword.equals("HEALTHCHECK")) {
                healthcheck = execForm(instruction.substring(instruction.indexOf(" CMD ") + " CMD ".length()));
            }
        }
        if (from != null) {
            stages.put(name, new Stage(name, from, copies, exposed, user, entrypoint, healthcheck));
        }
        return new DockerBuild(stages);
    }

    Map<String, Stage> stages() {
        return stages;
    }

    /** The stage and the stages it is built FROM, nearest first. */
    List<Stage> chain(String target) {
        var chain = new ArrayList<Stage>();
        for (var stage = stages.get(target); stage != null; stage = stages.get(stage.from())) {
            chain.add(stage);
        }
        return chain;
    }

    /** Base images pulled from a registry, as opposed to earlier stages. */
    List<String> baseImages() {
        return stages.values().stream()
                .map(Stage::from)
                .filter(from -> !stages.containsKey(from))
                .distinct()
                .toList();
    }

    /** The context's regular files that a COPY source (a path or a glob) names. */
    static List<Path> resolve(Path context, String source) {
        var matcher = FileSystems.getDefault().getPathMatcher("glob:" + source);
        try (Stream<Path> files = Files.walk(context.resolve(firstGlobFreeParent(source)))) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> matcher.matches(context.relativize(file)))
                    .toList();
        } catch (java.nio.file.NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String firstGlobFreeParent(String source) {
        var parts = source.split("/");
        var parent = new StringBuilder();
        for (int i = 0; i < parts.length - 1 && !parts[i].matches(".*[*?\\[].*"); i++) {
            parent.append(parts[i]).append('/');
        }
        return parent.isEmpty() ? "." : parent.toString();
    }

    /**
     * Whether .dockerignore keeps {@code path} (relative, with /) out of the context: the last rule that matches
     * the path or one of its parent directories decides, and a rule starting with {@code !} lets it back in.
     */
    static boolean ignored(Path dockerignore, String path) {
        if (!Files.exists(dockerignore)) {
            return false;
        }
        boolean ignored = false;
        try {
            for (var line : Files.readAllLines(dockerignore)) {
                var rule = line.strip();
                if (rule.isEmpty() || rule.startsWith("#")) {
                    continue;
                }
                boolean include = rule.startsWith("!");
                var pattern = globToRegex((include ? rule.substring(1) : rule).replaceFirst("^/", ""));
                if (matchesOrParentMatches(pattern, path)) {
                    ignored = !include;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ignored;
    }

    private static boolean matchesOrParentMatches(Pattern pattern, String path) {
        var parts = path.split("/");
        for (int end = parts.length; end > 0; end--) {
            if (pattern.matcher(String.join("/", Arrays.copyOf(parts, end))).matches()) {
                return true;
            }
        }
        return false;
    }

    /** Docker's patterns: Go's filepath.Match plus {@code **} for any number of directories. */
    private static Pattern globToRegex(String glob) {
        var regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                regex.append(".*");
                i++;
            } else if (c == '*') {
                regex.append("[^/]*");
            } else if (c == '?') {
                regex.append("[^/]");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    /** Logical lines: comments dropped, backslash continuations joined. */
    private static List<String> instructions(Path dockerfile) {
        var instructions = new ArrayList<String>();
        var current = new StringBuilder();
        try {
            for (var line : Files.readAllLines(dockerfile)) {
                var trimmed = line.strip();
                if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.isEmpty())) {
                    continue;
                }
                if (trimmed.endsWith("\\")) {
                    current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                    continue;
                }
                current.append(trimmed);
                instructions.add(current.toString().strip());
                current.setLength(0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return instructions;
    }

    /** ["a", "b"] as a list; shell form as one element. */
    private static List<String> execForm(String arguments) {
        var trimmed = arguments.strip();
        if (!trimmed.startsWith("[")) {
            return List.of(trimmed);
        }
        var words = new ArrayList<String>();
        for (var word : PipelineClient.json(trimmed)) {
            words.add(word.asString());
        }
        return words;
    }
}
