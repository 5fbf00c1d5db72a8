/**
 * The order of session ids every store walks in (`SessionPersistence.listChunks`, the list
 * index's identities): Unicode code point order, which is UTF-8 byte order — SQLite's BINARY
 * collation and PostgreSQL's `COLLATE "C"`. JavaScript's `<` compares UTF-16 code units instead,
 * which puts a character above U+FFFF (a surrogate pair, D800–DFFF) before one in E000–FFFF; a
 * merge of two walks must agree on one order, so it compares with this.
 */
export function compareSessionIds(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A code unit's rank in code point order: surrogates (code points above U+FFFF) after all others. */
function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}
