package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.codec.JavaScriptCodec;
import dev.iotpipeline.decoder.codec.PrimaryOutput;
import dev.iotpipeline.decoder.codec.UplinkCodec;

/** The form a device type's codec is written in, and which of its outputs keeps its own names, as the registry shows them. */
final class CodecForm {

    static final String BUILT_IN = "built-in";
    static final String WITH_NORMALIZE = "decodeUplink+normalizeUplink";

    private CodecForm() {}

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

    /**
     * The output a type's data units carry under their own names: what its compiled codec stores, or when the
     * codec cannot be built what the type records (the normalized one for a normalizing type recorded before both
     * were kept).
     */
    static PrimaryOutput primary(ResolvedDeviceType resolved) {
        if (resolved.codec() instanceof JavaScriptCodec script) {
            return script.primary();
        }
        return PrimaryOutput.recorded(
                resolved.type().primaryOutput(),
                WITH_NORMALIZE.equals(resolved.type().form()));
    }

    /** Whether a codec has two outputs, so that its primary one is a choice. */
    static boolean normalizes(UplinkCodec codec) {
        return codec instanceof JavaScriptCodec script && script.normalizes();
    }
}
