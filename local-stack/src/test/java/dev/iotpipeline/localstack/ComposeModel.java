package dev.iotpipeline.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * docker-compose.yml read the way Compose reads it, without Docker: YAML with anchors and merge keys resolved
 * (SnakeYAML; Jackson's YAML parser leaves {@code <<} as a plain key), then {@code ${VAR}} interpolation with
 * Compose's operators, then the services of the active profiles.
 */
final class ComposeModel {

    /** The checkout: tests run with the module directory as working directory. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    static final Path COMPOSE_FILE = ROOT.resolve("docker-compose.yml");
    static final Path CLUSTER_ENV = ROOT.resolve("deploy/cluster.env");

    // $$ | ${NAME} | ${NAME<op>word} with op one of :- - :? ? :+ + | $NAME
    private static final Pattern VARIABLE =
            Pattern.compile("\\$(?:(\\$)|\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?}|([A-Za-z_][A-Za-z0-9_]*))");

    /** A {@code ${VAR:?message}} whose variable is unset or empty, as Compose reports it before starting anything. */
    static final class MissingVariableException extends RuntimeException {

        final String variable;

        MissingVariableException(String variable, String message) {
            super("required variable " + variable + " is missing a value: " + message);
            this.variable = variable;
        }
    }

    private ComposeModel() {}

    /** A YAML file as it is written: the compose file before interpolation, or another tool's configuration. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> readYaml(Path file) {
        try (var reader = Files.newBufferedReader(file)) {
            return (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The compose file interpolated with {@code environment}, every profile's services still in it. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> read(Path file, Map<String, String> environment) {
        return (Map<String, Object>) interpolate(readYaml(file), environment);
    }

    /** Compose's {@code .env} format, as far as this project's files use it: NAME=value lines and comments. */
    static Map<String, String> readEnvFile(Path file) {
        var values = new LinkedHashMap<String, String>();
        try {
            for (var line : Files.readAllLines(file)) {
                var trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                int equals = trimmed.indexOf('=');
                values.put(
                        trimmed.substring(0, equals).strip(),
                        trimmed.substring(equals + 1).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return values;
    }

    /** Interpolates every string value (keys stay as written, as in Compose). */
    static Object interpolate(Object node, Map<String, String> environment) {
        if (node instanceof Map<?, ?> map) {
            var result = new LinkedHashMap<String, Object>();
            map.forEach((key, value) -> result.put(String.valueOf(key), interpolate(value, environment)));
            return result;
        }
        if (node instanceof List<?> list) {
            var result = new ArrayList<>();
            list.forEach(item -> result.add(interpolate(item, environment)));
            return result;
        }
        if (node instanceof String text) {
            return interpolate(text, environment);
        }
        return node;
    }

    static String interpolate(String text, Map<String, String> environment) {
        Matcher m = VARIABLE.matcher(text);
        var result = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(result, Matcher.quoteReplacement(substitute(m, environment)));
        }
        m.appendTail(result);
        return result.toString();
    }

    private static String substitute(Matcher m, Map<String, String> environment) {
        if (m.group(1) != null) {
            return "$";
        }
        var name = m.group(2) != null ? m.group(2) : m.group(5);
        var value = environment.get(name);
        var operator = m.group(3);
        if (operator == null) {
            return value == null ? "" : value;
        }
        // With a colon the operator treats an empty value like an unset one.
        boolean present = operator.startsWith(":") ? value != null && !value.isEmpty() : value != null;
        var word = m.group(4);
        return switch (operator.charAt(operator.length() - 1)) {
            case '-' -> present ? value : word;
            case '+' -> present ? word : "";
            case '?' -> {
                if (!present) {
                    throw new MissingVariableException(name, word);
                }
                yield value;
            }
            default -> throw new IllegalStateException(operator);
        };
    }

    /** The services that run with these profiles: those without profiles, and those naming an active one. */
    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> activeServices(Map<String, Object> compose, Set<String> profiles) {
        var active = new LinkedHashMap<String, Map<String, Object>>();
        services(compose).forEach((name, service) -> {
            var own = (List<String>) service.getOrDefault("profiles", List.of());
            if (own.isEmpty() || own.stream().anyMatch(profiles::contains)) {
                active.put(name, service);
            }
        });
        return active;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> services(Map<String, Object> compose) {
        return (Map<String, Map<String, Object>>) compose.get("services");
    }

    /** A service's environment as a map (Compose also allows a list of NAME=value). */
    @SuppressWarnings("unchecked")
    static Map<String, String> environment(Map<String, Object> service) {
        var environment = new LinkedHashMap<String, String>();
        var declared = service.get("environment");
        if (declared instanceof Map<?, ?> map) {
            map.forEach(
                    (key, value) -> environment.put(String.valueOf(key), value == null ? null : String.valueOf(value)));
        } else if (declared instanceof List<?> list) {
            for (var entry : (List<String>) list) {
                int equals = entry.indexOf('=');
                environment.put(entry.substring(0, equals), entry.substring(equals + 1));
            }
        }
        return environment;
    }

    /** The container port of each {@code ports} entry ("8080:8080", "127.0.0.1:9090:9090"). */
    @SuppressWarnings("unchecked")
    static List<Integer> containerPorts(Map<String, Object> service) {
        var ports = new ArrayList<Integer>();
        for (var entry : (List<Object>) service.getOrDefault("ports", List.of())) {
            var text = String.valueOf(entry);
            ports.add(Integer.parseInt(text.substring(text.lastIndexOf(':') + 1).replaceFirst("/.*", "")));
        }
        return ports;
    }

    /** The service's memory limit as written, from {@code mem_limit} or {@code deploy.resources.limits.memory}. */
    @SuppressWarnings("unchecked")
    static String memoryLimit(Map<String, Object> service) {
        if (service.get("mem_limit") != null) {
            return String.valueOf(service.get("mem_limit"));
        }
        var deploy = (Map<String, Object>) service.getOrDefault("deploy", Map.of());
        var resources = (Map<String, Object>) deploy.getOrDefault("resources", Map.of());
        var limits = (Map<String, Object>) resources.getOrDefault("limits", Map.of());
        return limits.get("memory") == null ? null : String.valueOf(limits.get("memory"));
    }

    /** A volume entry in short syntax: source (named volume or host path), target, options. */
    record Mount(String source, String target, boolean bind) {

        static Mount parse(Object entry) {
            if (entry instanceof Map<?, ?> map) {
                var source = String.valueOf(map.get("source"));
                return new Mount(source, String.valueOf(map.get("target")), "bind".equals(map.get("type")));
            }
            var parts = String.valueOf(entry).split(":");
            return new Mount(parts[0], parts[1], parts[0].startsWith(".") || parts[0].startsWith("/"));
        }
    }

    @SuppressWarnings("unchecked")
    static List<Mount> mounts(Map<String, Object> service) {
        return ((List<Object>) service.getOrDefault("volumes", List.of()))
                .stream().map(Mount::parse).toList();
    }
}
