/**
 * `null` when `events` are seqs `firstSeq, firstSeq + 1, …` in order, else why not
 * ("expected seq N, got M"). Every run of events the wire carries (a snapshot's window, a page, a
 * live frame) is contiguous: a client joins runs by seq and never sorts or fills them itself.
 */
export function contiguityProblem(
  events: readonly { readonly seq: number }[],
  firstSeq: number,
): string | null {
  for (let index = 0; index < events.length; index += 1) {
    const seq = events[index]?.seq;
    if (seq !== firstSeq + index) return `expected seq ${firstSeq + index}, got ${String(seq)}`;
  }
  return null;
}
