/** Ids one `list.changed` frame carries at most: a burst larger than this goes out in several frames. */
export const MAX_IDS_PER_FRAME = 500;

/**
 * A burst of changed session ids as `list.changed` frames: each id once, in the order it was
 * first seen, at most `maxPerFrame` per frame, no empty frame. Pure, so a property holds it.
 */
export function coalesceIds(ids: Iterable<string>, maxPerFrame: number = MAX_IDS_PER_FRAME): string[][] {
  if (!Number.isSafeInteger(maxPerFrame) || maxPerFrame < 1)
    throw new RangeError(`a frame holds a positive number of ids, got ${maxPerFrame}`);
  const frames: string[][] = [];
  let frame: string[] = [];
  for (const id of new Set(ids)) {
    frame.push(id);
    if (frame.length === maxPerFrame) {
      frames.push(frame);
      frame = [];
    }
  }
  if (frame.length > 0) frames.push(frame);
  return frames;
}
