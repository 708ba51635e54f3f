package dev.iotpipeline.decoder.codec;

import java.time.Duration;

/**
 * Run by {@link HostileScriptTest} in a JVM of its own with a small heap, it prints what a codec that doubles a
 * string until the heap cannot hold the next copy and a well-behaved codec after it each did, one line per call.
 */
final class HeapExhaustionProbe {

    private HeapExhaustionProbe() {}

    public static void main(String[] args) {
        var doubling = JavaScriptCodec.compile("doubling", """
                function decodeUplink(input) {
                  var s = 'x';
                  while (true) { s += s; s.charAt(1); }
                }""", Duration.ofSeconds(10));
        var good = JavaScriptCodec.compile("good", """
                function decodeUplink(input) { return { data: { value: input.bytes[0] } }; }""", Duration.ofSeconds(10));
        for (int i = 0; i < 2; i++) {
            try {
                doubling.decode(new byte[] {1}, 1);
                System.out.println("hostile: decoded");
            } catch (Throwable e) {
                System.out.println("hostile: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            try {
                System.out.println("good: " + good.decode(new byte[] {42}, 1).measurements());
            } catch (Throwable e) {
                System.out.println("good: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
    }
}
