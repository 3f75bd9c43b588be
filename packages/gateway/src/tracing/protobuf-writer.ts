import type { HrTime } from '@opentelemetry/api';

/** Protobuf wire types. */
export const VARINT = 0;
export const I64 = 1;
export const LEN = 2;
export const I32 = 5;

const EMPTY = Buffer.alloc(0);
/**
 * Called on the string rather than looked up on it: the strings written are of several kinds (constant,
 * sliced, concatenated, external), and `value.charCodeAt` left in the optimized code a call to V8's
 * generic load IC (2-4 us a traced call in place, in bench:profile).
 */
const charCodeAt = String.prototype.charCodeAt;

/**
 * Buffers for batches of encoded spans, kept for the next batches once exported. A fresh buffer of a
 * batch's size (hundreds of KB) is new memory: the kernel faults each of its pages in on the first
 * write, which cost more than all of the batch's encoding (580 against 8 us for 206 KB here).
 */
export class BufferPool {
  private readonly free: Buffer[] = [];

  constructor(private readonly keep = 4) {}

  /** A buffer of at least `size` bytes: a kept one when one is large enough. */
  take(size: number): Buffer {
    const at = this.free.findIndex((buf) => buf.length >= size);
    if (at < 0) return Buffer.allocUnsafeSlow(size);
    const [buf] = this.free.splice(at, 1);
    return buf!;
  }

  /** A buffer nothing reads or writes any more; beyond `keep`, the smallest kept one goes. */
  give(buf: Buffer): void {
    if (buf.length === 0) return;
    this.free.push(buf);
    if (this.free.length <= this.keep) return;
    let smallest = 0;
    this.free.forEach((kept, i) => {
      if (kept.length < this.free[smallest]!.length) smallest = i;
    });
    this.free.splice(smallest, 1);
  }
}

/** A growing buffer of protobuf wire data; with a pool, its buffers come from it and go back to it. */
export class Writer {
  private buf: Buffer;
  private pos = 0;

  constructor(
    size: number,
    private readonly pool?: BufferPool,
  ) {
    this.buf = pool ? pool.take(size) : Buffer.allocUnsafe(size);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** Gives the buffer back to the pool: what `finish` returned must not be read after. */
  release(): void {
    this.pool?.give(this.buf);
    this.buf = EMPTY;
    this.pos = 0;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const size = Math.max(this.buf.length * 2, this.pos + n + 1024);
    const bigger = this.pool ? this.pool.take(size) : Buffer.allocUnsafe(size);
    this.buf.copy(bigger, 0, 0, this.pos);
    this.pool?.give(this.buf);
    this.buf = bigger;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** A copy of what was written from `start` on. */
  copyFrom(start: number): Buffer {
    return Buffer.from(this.buf.subarray(start, this.pos));
  }

  /** Forgets what was written after the first `length` bytes. */
  truncate(length: number): void {
    this.pos = Math.min(this.pos, length);
  }

  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.room(n);
    // The shortest (an id, a small KeyValue) cost less in a loop than in a call into TypedArray's set.
    if (n > 16) this.buf.set(bytes, this.pos);
    else for (let i = 0, buf = this.buf, at = this.pos; i < n; i++) buf[at + i] = bytes[i]!;
    this.pos += n;
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  /** An unsigned varint below 2^32. */
  varint(value: number): void {
    this.room(5);
    let v = value >>> 0;
    while (v > 0x7f) {
      this.buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.pos++] = v;
  }

  /** A signed integer as int64 (two's complement, ten bytes when negative). */
  int64(value: number): void {
    if (value >= 0 && value <= 0xffffffff) return this.varint(value);
    this.room(10);
    let n = BigInt.asUintN(64, BigInt(value));
    while (n > 0x7fn) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  /** A count field, left out when 0 (the protobuf default). */
  countField(field: number, count: number): void {
    if (!count) return;
    this.tag(field, VARINT);
    this.varint(count);
  }

  fixed32(value: number): void {
    this.room(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  double(value: number): void {
    this.room(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /**
   * Nanoseconds since the epoch as fixed64, given as a double that holds an integer (a time from the
   * clock in milliseconds, times 1e6: exact to the double's precision, 256 ns today).
   */
  nanos(ns: number): void {
    this.room(8);
    const high = Math.floor(ns / 0x100000000);
    const low = ns - high * 0x100000000;
    const buf = this.buf;
    const at = this.pos;
    buf[at] = low & 0xff;
    buf[at + 1] = (low >>> 8) & 0xff;
    buf[at + 2] = (low >>> 16) & 0xff;
    buf[at + 3] = low >>> 24;
    buf[at + 4] = high & 0xff;
    buf[at + 5] = (high >>> 8) & 0xff;
    buf[at + 6] = (high >>> 16) & 0xff;
    buf[at + 7] = (high >>> 24) & 0xff;
    this.pos = at + 8;
  }

  /** An HrTime as fixed64 nanoseconds since the epoch, exact (seconds * 1e9 exceeds 2^53). */
  time([seconds, nanos]: HrTime): void {
    this.room(8);
    const low16 = seconds % 0x10000;
    const high = (seconds - low16) / 0x10000; // seconds = high * 2^16 + low16
    const a = low16 * 1e9 + nanos; // < 2^46
    const b = high * 1e9; // < 2^46 until the year 2^32 s; the total is b * 2^16 + a
    const bLow = b % 0x10000;
    const bHigh = (b - bLow) / 0x10000; // b * 2^16 = bHigh * 2^32 + bLow * 2^16
    const aLow = a % 0x100000000;
    const low = bLow * 0x10000 + aLow; // < 2^33
    const carry = low >= 0x100000000 ? 1 : 0;
    this.buf.writeUInt32LE(low % 0x100000000, this.pos);
    this.buf.writeUInt32LE((bHigh + (a - aLow) / 0x100000000 + carry) >>> 0, this.pos + 4);
    this.pos += 8;
  }

  /**
   * A length-delimited string field. Short ASCII strings (most: names, ids, addresses) are copied here
   * (a call into Buffer's native writer costs more than that); the others by the native UTF-8 writer.
   */
  stringField(field: number, value: string): void {
    this.tag(field, LEN);
    const n = value.length;
    if (n < 0x80) {
      this.room(n + 1);
      const buf = this.buf;
      const start = this.pos;
      buf[start] = n;
      let at = start + 1;
      for (let i = 0; i < n; i++) {
        const c = charCodeAt.call(value, i);
        if (c > 0x7f) {
          at = -1;
          break;
        }
        buf[at++] = c;
      }
      if (at >= 0) {
        this.pos = at;
        return;
      }
    }
    const length = Buffer.byteLength(value, 'utf8');
    this.varint(length);
    this.room(length);
    this.pos += this.buf.write(value, this.pos, length, 'utf8');
  }

  /** A trace or span id (lowercase hex, as the SDK makes them) as its bytes. */
  idField(field: number, hex: string): void {
    this.tag(field, LEN);
    const length = hex.length >>> 1;
    this.varint(length);
    this.room(length);
    const buf = this.buf;
    let at = this.pos;
    for (let i = 0; i < hex.length; i += 2) {
      const high = NIBBLES[hex.charCodeAt(i)];
      const low = NIBBLES[hex.charCodeAt(i + 1)];
      if (!(high! >= 0 && low! >= 0)) {
        // Not hex (never from the SDK): what the native decoder makes of it, zero-padded.
        buf.fill(0, this.pos, this.pos + length);
        buf.write(hex, this.pos, length, 'hex');
        this.pos += length;
        return;
      }
      buf[at++] = (high! << 4) | low!;
    }
    this.pos = at;
  }

  /** A 16-byte trace id given as four 32-bit words, as a bytes field. */
  traceIdField(field: number, w0: number, w1: number, w2: number, w3: number): void {
    this.tag(field, LEN);
    this.room(17);
    this.buf[this.pos++] = 16;
    this.word(w0);
    this.word(w1);
    this.word(w2);
    this.word(w3);
  }

  /** An 8-byte span id given as two 32-bit words, as a bytes field. */
  spanIdField(field: number, high: number, low: number): void {
    this.tag(field, LEN);
    this.room(9);
    this.buf[this.pos++] = 8;
    this.word(high);
    this.word(low);
  }

  /** Four bytes, big-endian; the room is made by the caller. */
  private word(w: number): void {
    const buf = this.buf;
    const at = this.pos;
    buf[at] = w >>> 24;
    buf[at + 1] = (w >>> 16) & 0xff;
    buf[at + 2] = (w >>> 8) & 0xff;
    buf[at + 3] = w & 0xff;
    this.pos = at + 4;
  }

  /** Reserves `reserved` bytes for the length of the message that follows; returns where it starts. */
  begin(reserved: number): number {
    this.room(reserved);
    const start = this.pos;
    this.pos += reserved;
    return start;
  }

  /** Writes the message's length at its start, moving the message when the length needs more or fewer bytes. */
  end(start: number, reserved: number): void {
    const length = this.pos - start - reserved;
    const size =
      length < 0x80 ? 1 : length < 0x4000 ? 2 : length < 0x200000 ? 3 : length < 0x10000000 ? 4 : 5;
    if (size !== reserved) {
      this.room(size - reserved);
      this.buf.copyWithin(start + size, start + reserved, this.pos);
      this.pos += size - reserved;
    }
    let v = length;
    let at = start;
    while (v > 0x7f) {
      this.buf[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[at] = v;
  }
}

/** Hex digit values by character code (-1: not a hex digit). */
const NIBBLES = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLES['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLES['0123456789ABCDEF'.charCodeAt(i)] = i;
}
