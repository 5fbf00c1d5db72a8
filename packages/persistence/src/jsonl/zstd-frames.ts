import { createRequire } from 'node:module';
import { Compressor } from 'zstd-napi';

/**
 * The on-disk frame layout of a `.zst` session log (see docs/decisions/0001-session-log-format.md):
 *
 *   [skippable frame: magic 0x184D2A5E | length 20 | 'STRD' kind check×3 firstSeq count zlen]
 *   [zstd frame of `zlen` bytes: content size set, XXH64 content checksum on]
 *
 * The first pair holds the header record (kind 0); every durable batch is one pair (kind 1). Any
 * zstd tool decodes the file to plain JSON lines (skippable frames are skipped); Strand reads the
 * small meta frames to locate batches without decompressing them. `check` is a 24-bit hash of
 * kind, firstSeq, count and zlen: a damaged length must read as damage, not as a torn tail.
 */
export const META_MAGIC = 0x184d2a5e;
export const META_PAYLOAD = 20;
export const META_SIZE = 8 + META_PAYLOAD;
const TAG = 0x44525453; // 'STRD' little-endian

export const FrameKind = { Header: 0, Events: 1 } as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

export interface FrameMeta {
  readonly kind: FrameKind;
  readonly firstSeq: number;
  readonly count: number;
  readonly zlen: number;
}

const require = createRequire(import.meta.url);
interface DCtxLike {
  decompress(dst: Uint8Array, src: Uint8Array): number;
}
interface Binding {
  DCtx: new () => DCtxLike;
  getFrameContentSize(frame: Uint8Array): number | null;
  findFrameCompressedSize(frame: Uint8Array): number;
}
// The high-level one-shot `decompress()` silently returns partial output on truncated input, so
// frames are decoded through the binding with their exact sizes checked.
const binding = require('zstd-napi/binding') as Binding;

let compressor: Compressor | undefined;
function getCompressor(): Compressor {
  if (compressor === undefined) {
    compressor = new Compressor();
    // Level 1: within 1.5% of level 3's ratio on session text at two thirds of the CPU (append path).
    compressor.setParameters({ compressionLevel: 1, checksumFlag: true, contentSizeFlag: true });
  }
  return compressor;
}

let dctx: DCtxLike | undefined;

/** Encodes one meta + zstd frame pair. */
export function encodeFrame(kind: FrameKind, firstSeq: number, count: number, content: Buffer): Buffer {
  const z = getCompressor().compress(content);
  const out = Buffer.allocUnsafe(META_SIZE + z.length);
  out.writeUInt32LE(META_MAGIC, 0);
  out.writeUInt32LE(META_PAYLOAD, 4);
  out.writeUInt32LE(TAG, 8);
  out.writeUInt8(kind, 12);
  out.writeUInt32LE(firstSeq, 16);
  out.writeUInt32LE(count, 20);
  out.writeUInt32LE(z.length, 24);
  out.writeUIntLE(metaCheck(out, 0), 13, 3);
  z.copy(out, META_SIZE);
  return out;
}

/** FNV-1a over kind, firstSeq, count and zlen, folded to 24 bits. */
function metaCheck(buf: Buffer, pos: number): number {
  let h = 0x811c9dc5;
  const mix = (byte: number): void => {
    h = Math.imul(h ^ byte, 0x01000193);
  };
  mix(buf[pos + 12]!);
  for (let i = pos + 16; i < pos + 28; i++) mix(buf[i]!);
  return (h ^ (h >>> 24)) & 0xffffff;
}

export type MetaRead =
  | { readonly status: 'ok'; readonly meta: FrameMeta }
  /** Fewer bytes than a meta frame remain. */
  | { readonly status: 'short' }
  /** The bytes there are not a Strand meta frame. */
  | { readonly status: 'bad' };

export function readMeta(buf: Buffer, pos: number): MetaRead {
  if (buf.length - pos < META_SIZE) return { status: 'short' };
  if (
    buf.readUInt32LE(pos) !== META_MAGIC ||
    buf.readUInt32LE(pos + 4) !== META_PAYLOAD ||
    buf.readUInt32LE(pos + 8) !== TAG
  ) {
    return { status: 'bad' };
  }
  const rawKind = buf.readUInt8(pos + 12);
  if (rawKind !== FrameKind.Header && rawKind !== FrameKind.Events) return { status: 'bad' };
  const kind: FrameKind = rawKind;
  if (buf.readUIntLE(pos + 13, 3) !== metaCheck(buf, pos)) return { status: 'bad' };
  const meta = {
    kind,
    firstSeq: buf.readUInt32LE(pos + 16),
    count: buf.readUInt32LE(pos + 20),
    zlen: buf.readUInt32LE(pos + 24),
  };
  if (kind === FrameKind.Header && (meta.firstSeq !== 0 || meta.count !== 0)) return { status: 'bad' };
  return { status: 'ok', meta };
}

/**
 * Decompresses exactly one zstd frame; throws on truncation, trailing bytes or checksum mismatch.
 * The result has `headroom` spare bytes before the content (for the block parser's `[`).
 */
export function decompressFrame(frame: Buffer, headroom = 0): Buffer {
  const size = binding.getFrameContentSize(frame);
  if (size === null) throw new Error('zstd frame has no content size');
  if (binding.findFrameCompressedSize(frame) !== frame.length) throw new Error('zstd frame length mismatch');
  const out = Buffer.allocUnsafe(size + headroom);
  dctx ??= new binding.DCtx();
  const produced = dctx.decompress(out.subarray(headroom), frame);
  if (produced !== size) throw new Error(`zstd frame decoded to ${produced} bytes, expected ${size}`);
  return out;
}

/**
 * The declared content size of a zstd frame whose compressed length is exactly `frame.length`;
 * undefined for anything else, a damaged frame header included (never throws).
 */
export function frameContentSize(frame: Uint8Array): number | undefined {
  try {
    const size = binding.getFrameContentSize(frame);
    if (size === null || binding.findFrameCompressedSize(frame) !== frame.length) return undefined;
    return size;
  } catch {
    // A damaged frame header ("Could not parse Zstandard header"): no valid content size.
    return undefined;
  }
}

/** Decompresses one frame into `out`, which must be exactly its content size; throws otherwise. */
export function decompressFrameInto(frame: Uint8Array, out: Uint8Array): void {
  dctx ??= new binding.DCtx();
  const produced = dctx.decompress(out, frame);
  if (produced !== out.length)
    throw new Error(`zstd frame decoded to ${produced} bytes, expected ${out.length}`);
}

/** True if every byte from `pos` is zero: what a file system leaves after a crash mid-extend. */
export function isZeroTail(buf: Buffer, pos: number): boolean {
  for (let i = pos; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}
