package dev.iotpipeline.decoder.codec;

import static dev.iotpipeline.decoder.codec.BuiltinWrappers.guardConstructor;
import static dev.iotpipeline.decoder.codec.BuiltinWrappers.wrap;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.MAX_BUFFER_BYTES;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.require;

import org.mozilla.javascript.Function;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;

/** The bounded {@code ArrayBuffer} and typed-array constructors, refusing buffers no codec needs. */
final class BufferBuiltins {

    private static final String[] TYPED_ARRAYS = {
        "Int8Array",
        "Uint8Array",
        "Uint8ClampedArray",
        "Int16Array",
        "Uint16Array",
        "Int32Array",
        "Uint32Array",
        "Float32Array",
        "Float64Array",
        "BigInt64Array",
        "BigUint64Array"
    };

    private BufferBuiltins() {}

    static void harden(ScriptableObject scope) {
        var arrayBuffer = (Function) ScriptableObject.getProperty(scope, "ArrayBuffer");
        guardConstructor(
                scope,
                "ArrayBuffer",
                arrayBuffer,
                (c, s, t, a) -> require(
                        a.length > 0 ? ScriptRuntime.toNumber(a[0]) : 0, MAX_BUFFER_BYTES, "ArrayBuffer length"));
        var bufferPrototype = (ScriptableObject) ScriptableObject.getProperty(arrayBuffer, "prototype");
        for (var name : new String[] {"transfer", "transferToFixedLength"}) {
            if (bufferPrototype.get(name, bufferPrototype) instanceof Function) {
                wrap(
                        scope,
                        bufferPrototype,
                        name,
                        (c, s, t, a) -> a.length > 0 && !Undefined.isUndefined(a[0])
                                ? require(ScriptRuntime.toNumber(a[0]), MAX_BUFFER_BYTES, name + " length")
                                : 0);
            }
        }
        for (var name : TYPED_ARRAYS) {
            if (!(ScriptableObject.getProperty(scope, name) instanceof Function constructor)) {
                continue;
            }
            double bytesPerElement =
                    ScriptRuntime.toNumber(ScriptableObject.getProperty(constructor, "BYTES_PER_ELEMENT"));
            guardConstructor(scope, name, constructor, (c, s, t, a) -> {
                var first = a.length > 0 ? a[0] : Undefined.instance;
                if (first instanceof Scriptable source) {
                    if ("ArrayBuffer".equals(source.getClassName())) {
                        return 0;
                    }
                    // An array-like or another typed array is copied: as many elements as its length.
                    var length = ScriptableObject.getProperty(source, "length");
                    return length == Scriptable.NOT_FOUND || Undefined.isUndefined(length)
                            ? 0
                            : require(
                                    ScriptRuntime.toNumber(length) * bytesPerElement, MAX_BUFFER_BYTES, name + " size");
                }
                return Undefined.isUndefined(first)
                        ? 0
                        : require(ScriptRuntime.toNumber(first) * bytesPerElement, MAX_BUFFER_BYTES, name + " size");
            });
        }
    }
}
