/*
 * Elmhurst AIR5 indoor air quality sensor (an invented device; test resource of the codec corpus).
 *
 * fPort 5, 12 bytes: frame version (2), CO2 ppm (uint16 BE), PM2.5 0.1 ug/m3 (uint16 BE), PM10 0.1 ug/m3
 * (uint16 BE), temperature 0.1 degC (int16 BE), relative humidity %, VOC index (uint16 BE).
 */
const MEASUREMENT_PORT = 5;
const FRAME_VERSION = 2;

class ByteReader {
  constructor(bytes) {
    this.bytes = bytes;
    this.offset = 0;
  }

  get remaining() {
    return this.bytes.length - this.offset;
  }

  static of(input) {
    // new this: a subclass calling of() gets an instance of itself.
    return new this(input.bytes);
  }

  need(count) {
    if (this.remaining < count) {
      throw new RangeError(`payload ends after ${this.bytes.length} bytes; byte ${this.offset} starts a ${count}-byte value`);
    }
  }

  uint8() {
    this.need(1);
    return this.bytes[this.offset++];
  }

  uint16() {
    this.need(2);
    const value = (this.bytes[this.offset] << 8) | this.bytes[this.offset + 1];
    this.offset += 2;
    return value;
  }

  int16() {
    const value = this.uint16();
    return value & 0x8000 ? value - 0x10000 : value;
  }
}

class AirFrameReader extends ByteReader {
  constructor(bytes) {
    super(bytes);
    this.version = this.uint8();
  }

  get supported() {
    return this.version === FRAME_VERSION;
  }

  measurements() {
    return {
      co2: this.uint16(),
      pm2_5: this.uint16() / 10,
      pm10: this.uint16() / 10,
      temperature: this.int16() / 10,
      humidity: this.uint8(),
      vocIndex: this.uint16(),
    };
  }
}

class AirQuality {
  static level(co2) {
    if (co2 < 800) {
      return 'good';
    }
    return co2 < 1400 ? 'moderate' : 'poor';
  }
}

function decodeUplink(input) {
  if (input.fPort !== MEASUREMENT_PORT) {
    return { errors: [`unknown fPort ${input.fPort}`] };
  }
  try {
    const reader = AirFrameReader.of(input);
    if (!reader.supported) {
      return { errors: [`unsupported frame version ${reader.version}`] };
    }
    const values = reader.measurements();
    const warnings = reader.remaining > 0 ? [`${reader.remaining} trailing bytes ignored`] : [];
    return {
      data: { frameVersion: reader.version, ...values, airQuality: AirQuality.level(values.co2) },
      warnings,
      errors: [],
    };
  } catch (e) {
    // Only a short payload is the device's fault; anything else is a bug here and must surface as one.
    if (e instanceof RangeError) {
      return { errors: [e.message] };
    }
    throw e;
  }
}
