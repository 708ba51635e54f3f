package dev.iotpipeline.rules.rule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.events.fuzz.Fuzz;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The rule API's validation path ({@link RuleRegistry#save} builds the {@link Rule} and compiles it) and the
 * evaluation of what it accepts: any condition, clear condition, durations, type and filter end as a compiled
 * rule or exactly {@link InvalidExpressionException} (the controller's 400); a compiled rule evaluated on any
 * measurements answers true or false without throwing, in bounded time, and leaves the measurements as they were.
 */
class CompiledRulePropertiesTest {

    private static final List<String> CATALOGUED = List.of(
            "temperature", "humidity", "battery", "co2", "pressure", "externalTemperature", "batteryVoltage", "pm2_5");

    /** The rule that {@link RuleRegistry#save} compiles for a request. */
    static Rule rule(Candidate c) {
        return new Rule(
                "fuzz",
                Rule.SCHEMA_VERSION,
                "fuzz",
                c.filter(),
                c.type(),
                c.condition(),
                c.clearCondition(),
                c.holdFor(),
                c.inactiveFor(),
                Severity.MAJOR,
                true,
                Instant.EPOCH);
    }

    static CompiledRule compile(Candidate candidate) {
        return Fuzz.expect(
                "compiled",
                () -> CompiledRule.compile(rule(candidate)),
                InvalidExpressionException.class,
                e -> e.getClass() == InvalidExpressionException.class
                        && e.getMessage() != null
                        && e.field() != null
                        && e.position() >= 0,
                e -> "invalid " + e.field());
    }

    @Property
    void anyRuleRequestCompilesOrIsAnInvalidExpression(@ForAll("candidates") Candidate candidate) {
        var compiled = compile(candidate);
        if (compiled != null) {
            assertThat(compiled.inactivity()).isEqualTo(candidate.type() == Rule.RuleType.INACTIVITY);
            assertThat(compiled.holdFor().isNegative()).isFalse();
        }
    }

    @Property
    void anyAcceptedRuleEvaluatesAnyMeasurementsToTrueOrFalse(
            @ForAll("evaluable") String condition, @ForAll("measurements") Map<String, Double> measurements) {
        CompiledRule compiled;
        try {
            compiled = CompiledRule.compile(rule(new Candidate(condition, null, null, null, null, null)));
        } catch (InvalidExpressionException refused) {
            // The other property holds compiling to its invariant; here only what compiles is of interest.
            Statistics.label("outcome").collect("refused");
            return;
        }
        var given = new HashMap<>(measurements);
        var verdict = Fuzz.returns(
                () -> List.of(compiled.raises(given), compiled.clears(given)),
                both -> "evaluated, raises " + both.get(0));
        assertThat(verdict).hasSize(2);
        assertThat(given).isEqualTo(measurements);
    }

    /** What a rule request carries that the compiler reads. */
    record Candidate(
            String condition,
            String clearCondition,
            String holdFor,
            String inactiveFor,
            Rule.RuleType type,
            RuleFilter filter) {}

    @Provide
    Arbitrary<Candidate> candidates() {
        var durations = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(null)),
                Tuple.of(
                        3,
                        Arbitraries.of(
                                "PT5M",
                                "PT1S",
                                "P1D",
                                "PT0.001S",
                                "PT-5M",
                                "PT0S",
                                "P0D",
                                "-PT1H",
                                "PT",
                                "P",
                                "",
                                " ",
                                "5m",
                                "PT9999999999999999999H",
                                "PT2562047788015215H",
                                "P106751991167301D",
                                "PT1.0000000001S",
                                "pt5m",
                                "P1W",
                                "PT5M ",
                                "\u0000")),
                Tuple.of(1, Arbitraries.strings().all().ofMaxLength(24)));
        var filters = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(null)),
                Tuple.of(
                        2,
                        Combinators.combine(
                                        Arbitraries.of("c", "").injectNull(0.6),
                                        Arbitraries.of("em300th").injectNull(0.6),
                                        Arbitraries.of("d-1").injectNull(0.6))
                                .as(RuleFilter::new)));
        return Combinators.combine(
                        conditions(),
                        conditions().injectNull(0.5),
                        durations,
                        durations,
                        Arbitraries.of(Rule.RuleType.class).injectNull(0.3),
                        filters)
                .as(Candidate::new);
    }

    /** Mostly conditions of the grammar, which compile more often than not, and now and then any condition. */
    @Provide
    Arbitrary<String> evaluable() {
        return Arbitraries.frequencyOf(Tuple.of(4, booleans(3)), Tuple.of(1, conditions()));
    }

    @Provide
    Arbitrary<String> conditions() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, booleans(3)),
                Tuple.of(
                        3,
                        Combinators.combine(booleans(2), Arbitraries.randoms()).as(CompiledRulePropertiesTest::mutate)),
                Tuple.of(2, tokens().list().ofMaxSize(12).map(parts -> String.join(" ", parts))),
                Tuple.of(1, deep()),
                Tuple.of(1, Arbitraries.strings().all().ofMaxLength(40)),
                Tuple.of(
                        1,
                        Arbitraries.of(
                                "",
                                " ",
                                "\t\n",
                                "true",
                                "false",
                                "!true",
                                "T(java.lang.Runtime) != null",
                                "new int[999999999].length > 0",
                                "new java.io.File('x').exists()",
                                "@bean > 1",
                                "#this > 1",
                                "#root.size() > 0",
                                "m.size() > 0",
                                "m['x'] = 1",
                                "!(m['temperature'] = 99)",
                                "!(temperature = 5)",
                                "!('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' matches '(a+)+$')",
                                "!(m matches '.*')",
                                "{1,2,3}.size() > 1",
                                "m.?[true] != null",
                                "m.![1] > 0",
                                "temperature between {1, 2}",
                                "temperature instanceof T(Double)",
                                "'x' * 1000000 > 'y'",
                                "temperature > 1 ? true : false",
                                "temperature ?: 1 > 0",
                                "m?.temperature > 1",
                                "temperature > 1e309",
                                "temperature > 99999999999999999999",
                                "temperature > 0x7FFFFFFF",
                                "temperature > 1L",
                                "temperature > 1.5e-400",
                                "abs() > 1",
                                "abs(1, 2) > 1",
                                "min(temperature) > 1",
                                "max(temperature, humidity, co2) > 1",
                                "sqrt(-1) > 0",
                                "abs(m) > 1",
                                "abs('x') > 1",
                                "m[temperature] > 1",
                                "m[m] > 1",
                                "m['a']['b'] > 1",
                                "m[0] > 1",
                                "m[null] > 1",
                                "temperature / 0 > 1",
                                "temperature % 0 > 1",
                                "1 / 0 > 1",
                                "1 % 0 > 1",
                                "2 ^ 99999 > 1",
                                "2 ^ -1 > 0",
                                "-(-(-1)) > 1",
                                "temperature++ > 1",
                                "--temperature > 1",
                                "temperature > 1 and humidity",
                                "not temperature")));
    }

    /** A boolean expression from the rule grammar (comparisons of numeric terms, and, or, not, parentheses). */
    private static Arbitrary<String> booleans(int depth) {
        var comparison = Combinators.combine(
                        terms(2),
                        Arbitraries.of(">", "<", ">=", "<=", "==", "!=", "gt", "lt", "ge", "le", "eq", "ne"),
                        terms(2))
                .as((a, op, b) -> a + " " + op + " " + b);
        if (depth <= 0) {
            return Arbitraries.frequencyOf(Tuple.of(8, comparison), Tuple.of(1, Arbitraries.of("true", "false")));
        }
        var smaller = Arbitraries.lazy(() -> booleans(depth - 1));
        return Arbitraries.frequencyOf(
                Tuple.of(4, comparison),
                Tuple.of(
                        2,
                        Combinators.combine(smaller, Arbitraries.of("&&", "||", "and", "or", "AND"), smaller)
                                .as((a, op, b) -> a + " " + op + " " + b)),
                Tuple.of(1, smaller.map(b -> "!" + b)),
                Tuple.of(1, smaller.map(b -> "not (" + b + ")")),
                Tuple.of(1, smaller.map(b -> "(" + b + ")")));
    }

    private static Arbitrary<String> terms(int depth) {
        var leaf = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(CATALOGUED)),
                Tuple.of(1, Arbitraries.of("temprature", "x", "m", "TempC_DS", "null", "true", "'hot'", "''")),
                Tuple.of(4, numbers()),
                Tuple.of(2, Arbitraries.of(CATALOGUED).map(name -> "m['" + name + "']")),
                Tuple.of(1, Arbitraries.of("m['TempC_DS']", "m['']", "m['\\'']", "m[\"a.b\"]", "m['m']")));
        if (depth <= 0) {
            return leaf;
        }
        var smaller = Arbitraries.lazy(() -> terms(depth - 1));
        return Arbitraries.frequencyOf(
                Tuple.of(5, leaf),
                Tuple.of(
                        2,
                        Combinators.combine(
                                        smaller, Arbitraries.of("+", "-", "*", "/", "%", "^", "div", "mod"), smaller)
                                .as((a, op, b) -> a + " " + op + " " + b)),
                Tuple.of(
                        2,
                        Combinators.combine(
                                        Arbitraries.of("abs", "sqrt", "round", "floor", "ceil", "exp", "log"), smaller)
                                .as((f, a) -> f + "(" + a + ")")),
                Tuple.of(
                        1,
                        Combinators.combine(Arbitraries.of("min", "max"), smaller, smaller)
                                .as((f, a, b) -> f + "(" + a + ", " + b + ")")),
                Tuple.of(1, smaller.map(a -> "-" + a)),
                Tuple.of(1, smaller.map(a -> "(" + a + ")")));
    }

    private static Arbitrary<String> numbers() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.integers().between(-100, 100).map(String::valueOf)),
                Tuple.of(
                        2, Arbitraries.doubles().between(-1000, 1000).ofScale(3).map(String::valueOf)),
                Tuple.of(
                        1,
                        Arbitraries.of(
                                "0",
                                "0.0",
                                "-0",
                                "1e308",
                                "1e309",
                                "-1e309",
                                "4.9e-324",
                                "1.5e-400",
                                "2147483647",
                                "2147483648",
                                "9223372036854775807",
                                "9223372036854775808",
                                "99999999999999999999999",
                                "0x1F",
                                "0xFFFFFFFFFFFFFFFFF",
                                "1L",
                                "1.5f",
                                "1.5d",
                                "007",
                                "1_0",
                                "NaN",
                                "Infinity",
                                ".5",
                                "5.",
                                "1e",
                                "1e+",
                                "1.2.3")));
    }

    private static Arbitrary<String> tokens() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, terms(0)),
                Tuple.of(
                        3,
                        Arbitraries.of(
                                ">",
                                "<",
                                ">=",
                                "<=",
                                "==",
                                "!=",
                                "&&",
                                "||",
                                "!",
                                "and",
                                "or",
                                "not",
                                "+",
                                "-",
                                "*",
                                "/",
                                "%",
                                "^",
                                "(",
                                ")",
                                "[",
                                "]",
                                "{",
                                "}",
                                ",",
                                ".",
                                "?",
                                ":",
                                "?:",
                                "?.",
                                "=",
                                "#",
                                "@",
                                "$",
                                "&",
                                "|",
                                "T(",
                                "new",
                                "matches",
                                "between",
                                "instanceof",
                                ".?[",
                                ".^[",
                                ".$[",
                                ".![",
                                "'",
                                "\"",
                                "\\",
                                "`",
                                "~",
                                "#{",
                                "${",
                                "}",
                                "abs(",
                                "min(",
                                "max(")),
                Tuple.of(1, Arbitraries.strings().ascii().ofMaxLength(6)));
    }

    /** Nesting, repetition and length far beyond a real rule (SpEL stops at 10,000 characters). */
    private static Arbitrary<String> deep() {
        var depth = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(1, 300)),
                Tuple.of(1, Arbitraries.integers().between(300, 6000)));
        return Combinators.combine(depth, Arbitraries.integers().between(0, 5), Arbitraries.of(true, false))
                .as((n, shape, closed) -> switch (shape) {
                    case 0 -> "(".repeat(n) + "temperature > 1" + (closed ? ")".repeat(n) : "");
                    case 1 -> "!".repeat(n) + "(temperature > 1)";
                    case 2 -> "temperature > " + "-".repeat(n) + "1";
                    case 3 -> String.join(" && ", java.util.Collections.nCopies(Math.max(1, n / 8), "temperature > 1"));
                    case 4 -> "abs(".repeat(n) + "temperature" + (closed ? ")".repeat(n) : "") + " > 1";
                    default -> "m['" + "x".repeat(n * 3) + "'] > 1";
                });
    }

    /** One to three edits of an expression: delete, duplicate or insert a slice, insert a token. */
    private static String mutate(String text, java.util.Random random) {
        var out = new StringBuilder(text);
        int edits = 1 + random.nextInt(3);
        String[] inserts = {
            "(", ")", "'", "[", "]", "!", "&&", ">", ".", ",", "m['", "abs(", " ", "\u0000", "\uD800", "#"
        };
        for (int e = 0; e < edits; e++) {
            int at = out.isEmpty() ? 0 : random.nextInt(out.length());
            switch (random.nextInt(4)) {
                case 0 -> out.delete(at, Math.min(out.length(), at + 1 + random.nextInt(4)));
                case 1 -> out.insert(at, out.substring(at, Math.min(out.length(), at + 1 + random.nextInt(8))));
                default -> out.insert(at, inserts[random.nextInt(inserts.length)]);
            }
        }
        return out.toString();
    }

    @Provide
    Arbitrary<Map<String, Double>> measurements() {
        var names = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(CATALOGUED)),
                Tuple.of(1, Arbitraries.of("TempC_DS", "m", "", "a.b", "x")),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(8)));
        var values = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.doubles().between(-1e4, 1e4)),
                Tuple.of(
                        2,
                        Arbitraries.of(
                                Double.NaN,
                                Double.POSITIVE_INFINITY,
                                Double.NEGATIVE_INFINITY,
                                -0.0,
                                0.0,
                                Double.MAX_VALUE,
                                -Double.MAX_VALUE,
                                Double.MIN_VALUE,
                                1e308)),
                Tuple.of(1, Arbitraries.doubles()));
        return Arbitraries.maps(names, values).ofMaxSize(8);
    }
}
