package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.codec.JavaScriptCodec;
import dev.iotpipeline.decoder.codec.UplinkCodec;

/** The form a device type's codec is written in, as the registry shows it. */
final class CodecForm {

    static final String BUILT_IN = "built-in";
    static final String WITH_NORMALIZE = "decodeUplink+normalizeUplink";

    private CodecForm() {
    }

    /**
     * {@code decodeUplink}, {@code decodeUplink+normalizeUplink} when the script also defines
     * {@code normalizeUplink}, {@code Decode} (ChirpStack v3), {@code Decoder} (TTN v2), or {@code built-in}.
     */
    static String of(UplinkCodec codec) {
        if (codec instanceof JavaScriptCodec script) {
            return script.normalizes() ? WITH_NORMALIZE : script.form().function();
        }
        return BUILT_IN;
    }

    /**
     * The recorded form, or for a type registered before forms were recorded the one its codec shows now; null
     * when that codec cannot be built.
     */
    static String shown(ResolvedDeviceType resolved) {
        if (resolved.type().form() != null) {
            return resolved.type().form();
        }
        return resolved.codec() == null ? null : of(resolved.codec());
    }
}
