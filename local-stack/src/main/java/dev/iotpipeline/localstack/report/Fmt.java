package dev.iotpipeline.localstack.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/** Number formatting for the reports: thousands separators, fixed decimals, JSON numbers as written. */
final class Fmt {

    private Fmt() {}

    /** "1,234" for integral values, the value as written otherwise (e.g. "12.5"). */
    static String grouped(JsonNode number) {
        if (number == null || number.isNull() || number.isMissingNode()) {
            return "n/a";
        }
        return number.isIntegralNumber() ? String.format(Locale.ROOT, "%,d", number.asLong()) : plain(number);
    }

    /** "1,235": rounded half to even, with thousands separators; "nan" for NaN. */
    static String grouped(double value) {
        return !Double.isFinite(value)
                ? special(value)
                : String.format(
                        Locale.ROOT,
                        "%,d",
                        new BigDecimal(value)
                                .setScale(0, RoundingMode.HALF_EVEN)
                                .toBigInteger());
    }

    /** "12.3" with the given decimals, the exact value rounded half to even; "nan" for NaN. */
    static String fixed(double value, int decimals) {
        return !Double.isFinite(value)
                ? special(value)
                : new BigDecimal(value)
                        .setScale(decimals, RoundingMode.HALF_EVEN)
                        .toPlainString();
    }

    private static String special(double value) {
        return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    }

    /** A JSON number as it was written: 12 stays "12", 12.0 stays "12.0", 22.4 stays "22.4". */
    static String plain(JsonNode number) {
        if (number == null || number.isNull() || number.isMissingNode()) {
            return "n/a";
        }
        if (!number.isNumber()) {
            return number.asString();
        }
        return number.isIntegralNumber() ? Long.toString(number.asLong()) : plain(number.asDouble());
    }

    static String plain(double value) {
        return BigDecimal.valueOf(value).toPlainString();
    }

    /** Six significant digits without trailing zeros: 1 as "1", 0.5 as "0.5". */
    static String general(double value) {
        return new BigDecimal(value)
                .round(new MathContext(6))
                .stripTrailingZeros()
                .toPlainString();
    }

    /** The median: the middle value, or the mean of the two middle values; NaN when there is none. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        var sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
