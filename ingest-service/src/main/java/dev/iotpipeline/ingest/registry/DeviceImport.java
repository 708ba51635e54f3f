package dev.iotpipeline.ingest.registry;

import dev.iotpipeline.ingest.registry.DeviceRequests.DeviceRequest;
import dev.iotpipeline.web.problem.Problems;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.csv.CsvMapper;

/**
 * Reads a bulk import, one device per line, as CSV with a header line or as NDJSON, and checks every line the way
 * a single registration is checked; a line that fails is reported by its number and the others go on. The whole
 * import is read before anything is written, so one too long is refused with nothing applied.
 */
final class DeviceImport {

    /** The body's format, by its content type. */
    enum Format {
        CSV("text/csv"),
        NDJSON("application/x-ndjson");

        final String mediaType;

        Format(String mediaType) {
            this.mediaType = mediaType;
        }
    }

    /** The columns a CSV import may have, in any order; {@code deviceId} is required. */
    static final List<String> COLUMNS = List.of("deviceId", "deviceType", "enabled", "labels", "secret");

    /** A valid line: its number (from 1, counting every line of the body) and the device it registers. */
    record Line(int number, String deviceId, DeviceRequest request) {}

    /** A line that registers nothing, and why. */
    record LineError(int line, String detail) {}

    /** What an import holds: how many lines it had, the valid ones and the errors of the others. */
    record Parsed(int lineCount, List<Line> lines, List<LineError> errors) {}

    /** One NDJSON line: the fields of a device, as a single registration takes them, with its id. */
    record JsonLine(String deviceId, String deviceType, Map<String, String> labels, Boolean enabled, String secret) {}

    private final ObjectReader jsonLine;
    private final ObjectReader csvRow;
    private final int maxLines;

    DeviceImport(JsonMapper json, int maxLines) {
        this.jsonLine = json.readerFor(JsonLine.class);
        // Without a schema the CSV parser exposes one row as an array of its cells.
        this.csvRow = new CsvMapper().readerFor(String[].class);
        this.maxLines = maxLines;
    }

    Parsed parse(InputStream body, Format format) throws IOException {
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        var reader = new LineReader(body);
        var lines = new ArrayList<Line>();
        var errors = new ArrayList<LineError>();
        var firstLineOf = new HashMap<String, Integer>();
        List<String> header = null;
        int number = 0;
        int devices = 0;
        String text;
        while (true) {
            var bytes = reader.next();
            if (bytes == null) {
                break;
            }
            try {
                text = decoder.decode(bytes).toString();
            } catch (CharacterCodingException e) {
                throw invalid("line " + (number + 1) + " is not UTF-8 text");
            }
            number++;
            if (number == 1 && text.startsWith("\uFEFF")) {
                // A byte-order mark, as spreadsheets write one at the start of a UTF-8 CSV.
                text = text.substring(1);
            }
            if (text.isBlank()) {
                continue;
            }
            if (format == Format.CSV && header == null) {
                header = header(text, number);
                continue;
            }
            if (++devices > maxLines) {
                throw Problems.of(
                        HttpStatus.CONTENT_TOO_LARGE,
                        "import-too-large",
                        "An import may register at most " + maxLines + " devices; split it (nothing was applied)",
                        Map.of("maxLines", maxLines));
            }
            try {
                var line = format == Format.CSV ? csvLine(text, number, header) : jsonLine(text, number);
                var first = firstLineOf.putIfAbsent(line.deviceId(), number);
                if (first != null) {
                    errors.add(new LineError(number, "device '" + line.deviceId() + "' is on line " + first + " too"));
                    continue;
                }
                lines.add(line);
            } catch (ErrorResponseException e) {
                errors.add(new LineError(number, e.getBody().getDetail()));
            }
        }
        if (devices == 0) {
            throw invalid(
                    format == Format.CSV
                            ? "the import holds no devices: a header line and one device per line expected"
                            : "the import holds no devices: one JSON object per line expected");
        }
        return new Parsed(number, lines, errors);
    }

    /** The body's lines as bytes, each decoded alone so a decoding error names its line. */
    private static final class LineReader {

        private final BufferedInputStream in;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

        LineReader(InputStream in) {
            this.in = new BufferedInputStream(in, 1 << 16);
        }

        /** The next line without its end ({@code \n} or {@code \r\n}), or null at the end of the body. */
        ByteBuffer next() throws IOException {
            line.reset();
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                line.write(b);
            }
            if (b < 0 && line.size() == 0) {
                return null;
            }
            var bytes = line.toByteArray();
            int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
            return ByteBuffer.wrap(bytes, 0, length);
        }
    }

    private static List<String> header(String text, int number) {
        var columns = Arrays.stream(text.split(",", -1)).map(String::strip).toList();
        for (var column : columns) {
            if (!COLUMNS.contains(column)) {
                throw invalid("line " + number + ": unknown column '" + column + "'; the columns are " + COLUMNS);
            }
        }
        if (columns.stream().distinct().count() != columns.size()) {
            throw invalid("line " + number + ": a column is named twice");
        }
        if (!columns.contains("deviceId")) {
            throw invalid("line " + number + ": the header needs a deviceId column");
        }
        return columns;
    }

    private Line csvLine(String text, int number, List<String> header) {
        String[] values;
        try {
            values = csvRow.readValue(text);
        } catch (JacksonException e) {
            throw lineProblem("malformed CSV: " + e.getOriginalMessage());
        }
        if (values.length != header.size()) {
            throw lineProblem("has " + values.length + " fields; the header names " + header.size());
        }
        var fields = new HashMap<String, String>();
        for (int i = 0; i < values.length; i++) {
            fields.put(header.get(i), values[i].isEmpty() ? null : values[i]);
        }
        var enabled = fields.get("enabled");
        if (enabled != null && !enabled.equals("true") && !enabled.equals("false")) {
            throw lineProblem("enabled: must be true or false, not '" + enabled + "'");
        }
        return line(
                number,
                fields.get("deviceId"),
                new DeviceRequest(
                        fields.get("deviceType"),
                        labels(fields.get("labels")),
                        enabled == null ? null : Boolean.valueOf(enabled),
                        fields.get("secret")));
    }

    private Line jsonLine(String text, int number) {
        JsonLine json;
        try {
            json = jsonLine.readValue(text);
        } catch (JacksonException e) {
            throw lineProblem("malformed JSON: " + e.getOriginalMessage());
        }
        if (json == null) {
            throw lineProblem("expected a JSON object");
        }
        return line(
                number,
                json.deviceId(),
                new DeviceRequest(json.deviceType(), json.labels(), json.enabled(), json.secret()));
    }

    private static Line line(int number, String deviceId, DeviceRequest request) {
        DeviceRequests.requireDeviceId(deviceId);
        DeviceRequests.requireDevice(request);
        return new Line(number, deviceId, request);
    }

    /** {@code key=value;key=value}, as a CSV cell holds labels. */
    private static Map<String, String> labels(String cell) {
        if (cell == null) {
            return null;
        }
        var labels = new LinkedHashMap<String, String>();
        for (var pair : cell.split(";")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw lineProblem("labels: expected key=value pairs separated by ';', not '" + pair + "'");
            }
            labels.put(
                    pair.substring(0, equals).strip(),
                    pair.substring(equals + 1).strip());
        }
        return labels;
    }

    private static ErrorResponseException lineProblem(String detail) {
        return Problems.of(HttpStatus.BAD_REQUEST, "invalid-field", detail);
    }

    private static ErrorResponseException invalid(String detail) {
        return Problems.of(HttpStatus.BAD_REQUEST, "invalid-import", detail);
    }
}
