package dev.iotpipeline.ingest.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;
import tools.jackson.databind.json.JsonMapper;

class DeviceImportTest {

    private final DeviceImport imports = new DeviceImport(JsonMapper.builder().build(), 3);

    @Test
    void shouldReadCsvWithQuotedCellsAndNumberEveryLineOfTheBody() throws Exception {
        var parsed = parse("""
                deviceId,labels,enabled

                s1,"room=12,east;floor=3",true
                s2,,false
                """, DeviceImport.Format.CSV);

        assertThat(parsed.errors()).isEmpty();
        assertThat(parsed.lines()).extracting(DeviceImport.Line::number).containsExactly(3, 4);
        assertThat(parsed.lines().get(1).request().enabled()).isFalse();
        assertThat(parsed.lines().getFirst().request().labels())
                .containsEntry("floor", "3")
                .containsEntry("room", "12,east");
    }

    @Test
    void shouldReportEachBadLineByNumberAndKeepTheOthers() throws Exception {
        var parsed = parse("""
                deviceId,deviceType
                s1,lht65
                s2,lht65,extra
                s1,lht65
                """, DeviceImport.Format.CSV);

        assertThat(parsed.lines()).extracting(DeviceImport.Line::deviceId).containsExactly("s1");
        assertThat(parsed.errors()).extracting(DeviceImport.LineError::line).containsExactly(3, 4);
        assertThat(parsed.errors().get(0).detail()).contains("3 fields");
        assertThat(parsed.errors().get(1).detail()).contains("line 2");
    }

    @Test
    void shouldReadNdjsonAndNameWhatIsWrongWithALine() throws Exception {
        var parsed = parse("""
                {"deviceId":"s1","deviceType":"lht65","labels":{"floor":"3"}}
                {"deviceId":"s2",
                {"deviceId":"s3","deviceType":"Not A Name"}
                """, DeviceImport.Format.NDJSON);

        assertThat(parsed.lines()).extracting(DeviceImport.Line::deviceId).containsExactly("s1");
        assertThat(parsed.errors()).extracting(DeviceImport.LineError::line).containsExactly(2, 3);
        assertThat(parsed.errors().get(0).detail()).startsWith("malformed JSON");
        assertThat(parsed.errors().get(1).detail()).startsWith("deviceType:");
    }

    @Test
    void shouldRefuseAHeaderWithAnUnknownColumnBeforeAnyLine() {
        assertProblem(() -> parse("deviceId,colour\ns1,red\n", DeviceImport.Format.CSV), 400, "invalid-import");
        assertProblem(() -> parse("deviceType\nlht65\n", DeviceImport.Format.CSV), 400, "invalid-import");
        assertProblem(() -> parse("deviceId\n\n", DeviceImport.Format.CSV), 400, "invalid-import");
    }

    @Test
    void shouldRefuseAnImportOverTheLineLimitWhole() {
        assertProblem(() -> parse("deviceId\na\nb\nc\nd\n", DeviceImport.Format.CSV), 413, "import-too-large");
    }

    @Test
    void shouldRefuseABodyThatIsNotUtf8() {
        byte[] body = {'d', 'e', 'v', 'i', 'c', 'e', 'I', 'd', '\n', (byte) 0xC3, (byte) 0x28, '\n'};

        assertThatThrownBy(() -> imports.parse(new ByteArrayInputStream(body), DeviceImport.Format.CSV))
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getDetail()).contains("line 2"));
    }

    private DeviceImport.Parsed parse(String body, DeviceImport.Format format) throws Exception {
        return imports.parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), format);
    }

    private static void assertProblem(ThrowingCall call, int status, String type) {
        RegistrarTest.assertProblem(
                () -> {
                    try {
                        call.run();
                    } catch (RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                status,
                type);
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }
}
