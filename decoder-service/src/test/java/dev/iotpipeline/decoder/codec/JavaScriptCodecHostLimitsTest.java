package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Found while fuzzing the JavaScript host boundary: work done on the host side of a call, outside the
 * instruction observer, escaped the time limit and the allocation budget, and NativeArray.size() threw
 * IllegalStateException past Integer.MAX_VALUE. Measured before the fix (2 shared cores, limit 100 ms, budget 32 MiB):
 * <ul>
 * <li>length 2^32-1 as data value, errors or warnings: IllegalStateException "list.length (4294967295) exceeds
 * Integer.MAX_VALUE" out of decode()</li>
 * <li>a sparse array of length 20,000,000 in data: 2.2 s, a 20-million-element attribute list returned</li>
 * <li>new Array(1e8).fill(0): 89 s, then OutOfMemoryError (one builtin call, no observer callback)</li>
 * <li>''.padStart(1 &lt;&lt; 29, 'ab'): 2.7 s and about 1 GiB allocated, returned as a value</li>
 * </ul>
 * Now bounded: a result's size is counted before the host reads it, and built-ins refuse sizes above
 * {@link ScriptBuiltins} limits (see {@link HostileScriptTest} for the rest).
 */
class JavaScriptCodecHostLimitsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "var a = []; a.length = 4294967295; return {data: {x: 1}, errors: a};",
                "var a = []; a.length = 4294967295; return {data: {x: 1}, warnings: a};",
                "var a = []; a.length = 4294967295; return {data: {x: a}};",
                "var a = []; a.length = 20000000; return {data: {x: a}};",
                "return {data: {n: new Array(20000000).fill(0).length}};",
                "return {data: {s: ''.padStart(1 << 28, 'ab').length}};"
            })
    // Only a safety net against a hang (these ran for seconds to minutes before); the limits themselves are
    // the sandbox's, and how fast it refuses is not this test's business.
    @Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldEndAsACodecException(String body) {
        var codec = JavaScriptCodec.compile(
                "limits", "function decodeUplink(input) { " + body + " }", Duration.ofMillis(100));

        assertThatThrownBy(() -> codec.decode(new byte[] {1}, 1)).isInstanceOf(CodecException.class);
    }
}
