// The inflate worker: decompresses groups of zstd event frames off the main thread and hands back
// each group as ONE JSON array text, so the main thread's share of a cold read is `JSON.parse`
// plus envelope checks. Plain JavaScript on purpose: a worker cannot rely on the TypeScript loader
// its parent happens to run under (tsx, vitest). The frame format itself stays in zstd-frames.ts;
// this file only sees bare zstd frames whose lengths the main thread has already read.
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

// The binding, not the high-level one-shot decompress(): that one returns partial output on a
// truncated frame instead of failing.
const binding = createRequire(import.meta.url)('zstd-napi/binding');
const dctx = new binding.DCtx();

const SCRATCH_MAX = 4 * 1024 * 1024;
/** The `workerData` flag FrameInflater starts this file with. */
export const INFLATE_WORKER = 'strandInflateWorker';

let scratch = Buffer.allocUnsafe(256 * 1024);

const COMMA = 0x2c;
const NEWLINE = 0x0a;

/**
 * Request: { id, data: Uint8Array (the group's zstd frames back to back), frames: [{ len, count }] }.
 * Reply:   { id, text, done, error } — `text` is `[e0,e1,…]` over the first `done` frames (null if
 * none), `error` ({ index, message }) names the first frame that failed to decompress, failed its
 * checksum, or did not hold exactly `count` newline-terminated lines.
 */
export function inflateGroup({ id, data, frames }) {
  const input = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const sizes = [];
  let total = 0;
  let error = null;
  let offset = 0;
  for (let i = 0; i < frames.length; i++) {
    const frame = input.subarray(offset, offset + frames[i].len);
    offset += frames[i].len;
    const size = binding.getFrameContentSize(frame);
    if (size === null) {
      error = { index: i, message: 'zstd frame has no content size' };
      break;
    }
    if (binding.findFrameCompressedSize(frame) !== frame.length) {
      error = { index: i, message: 'zstd frame length mismatch' };
      break;
    }
    sizes.push(size);
    total += size;
  }
  // One output buffer for the whole group, with one spare byte in front for the opening '['.
  // Reused across groups: the text is copied out by toString(), so only the string is garbage.
  // An outsized group (one huge batch) gets a buffer of its own, so the scratch never stays huge.
  let out = scratch;
  if (total + 1 > SCRATCH_MAX) out = Buffer.allocUnsafe(total + 1);
  else if (scratch.length < total + 1) out = scratch = Buffer.allocUnsafe(SCRATCH_MAX);
  let done = 0;
  let write = 1;
  offset = 0;
  let events = 0;
  for (let i = 0; i < sizes.length; i++) {
    const frame = input.subarray(offset, offset + frames[i].len);
    offset += frames[i].len;
    const size = sizes[i];
    let produced;
    try {
      produced = dctx.decompress(out.subarray(write, write + size), frame);
    } catch (cause) {
      error = { index: i, message: cause instanceof Error ? cause.message : String(cause) };
      break;
    }
    if (produced !== size) {
      error = { index: i, message: `zstd frame decoded to ${produced} bytes, expected ${size}` };
      break;
    }
    const end = write + size;
    if (frames[i].count === 0) {
      if (size !== 0) {
        error = { index: i, message: 'non-empty block with zero events' };
        break;
      }
    } else {
      if (out[end - 1] !== NEWLINE) {
        error = { index: i, message: 'block does not end with a newline' };
        break;
      }
      let lines = 0;
      for (let nl = out.indexOf(NEWLINE, write); nl >= 0 && nl < end; nl = out.indexOf(NEWLINE, nl + 1)) {
        out[nl] = COMMA;
        lines++;
      }
      if (lines !== frames[i].count) {
        error = { index: i, message: `expected ${frames[i].count} events, found ${lines} lines` };
        break;
      }
    }
    events += frames[i].count;
    write = end;
    done++;
  }
  let text = null;
  if (events > 0) {
    out[0] = 0x5b; // '['
    out[write - 1] = 0x5d; // the last ',' becomes ']'
    text = out.toString('utf8', 0, write);
  }
  return { id, text, done, error };
}

// Also imported as a module (the in-thread path), possibly inside some other worker thread (the
// importers run lanes in workers): only a worker started as the inflate worker listens.
if (parentPort !== null && workerData?.[INFLATE_WORKER] === true) {
  parentPort.on('message', (request) => {
    parentPort.postMessage(inflateGroup(request));
  });
}
