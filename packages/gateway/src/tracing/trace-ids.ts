// Trace and span ids: random 32-bit words, as the SDK's generator draws them, and their hex.

/** A random 32-bit word, as the SDK's id generator makes them. */
export const word = (): number => (Math.random() * 0x100000000) >>> 0;
/**
 * Ids in hex, made flat in one call from their characters' codes: read back from a Buffer's bytes, an
 * id cost a call into native code; built from pieces, 19 string concatenations and a flattening.
 */
const DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const d = (w: number, shift: number): number => DIGITS[(w >>> shift) & 15]!;
const fromCharCode = String.fromCharCode;

export const spanHex = (high: number, low: number): string =>
  fromCharCode(
    d(high, 28),
    d(high, 24),
    d(high, 20),
    d(high, 16),
    d(high, 12),
    d(high, 8),
    d(high, 4),
    d(high, 0),
    d(low, 28),
    d(low, 24),
    d(low, 20),
    d(low, 16),
    d(low, 12),
    d(low, 8),
    d(low, 4),
    d(low, 0),
  );

const traceHex = (w0: number, w1: number, w2: number, w3: number): string =>
  fromCharCode(
    d(w0, 28),
    d(w0, 24),
    d(w0, 20),
    d(w0, 16),
    d(w0, 12),
    d(w0, 8),
    d(w0, 4),
    d(w0, 0),
    d(w1, 28),
    d(w1, 24),
    d(w1, 20),
    d(w1, 16),
    d(w1, 12),
    d(w1, 8),
    d(w1, 4),
    d(w1, 0),
    d(w2, 28),
    d(w2, 24),
    d(w2, 20),
    d(w2, 16),
    d(w2, 12),
    d(w2, 8),
    d(w2, 4),
    d(w2, 0),
    d(w3, 28),
    d(w3, 24),
    d(w3, 20),
    d(w3, 16),
    d(w3, 12),
    d(w3, 8),
    d(w3, 4),
    d(w3, 0),
  );

export const wordAt = (hex: string, at: number): number => parseInt(hex.slice(at, at + 8), 16) >>> 0;

/** A trace id as four 32-bit words (what the encoder writes) and its hex (what the API shows). */
export class TraceId {
  constructor(
    readonly w0: number,
    readonly w1: number,
    readonly w2: number,
    readonly w3: number,
    readonly hex: string,
  ) {}

  static random(): TraceId {
    const w0 = word();
    const w1 = word();
    const w2 = word();
    // An id of zeros is invalid: the last bit is then set, as the SDK does.
    const w3 = w0 | w1 | w2 ? word() : word() || 1;
    return new TraceId(w0, w1, w2, w3, traceHex(w0, w1, w2, w3));
  }

  static of(hex: string): TraceId {
    return new TraceId(wordAt(hex, 0), wordAt(hex, 8), wordAt(hex, 16), wordAt(hex, 24), hex);
  }
}
