import type { RpcId } from '@strand/protocol';

/** How much of a frame `readRequestId` looks at: a refusal must stay cheaper than the work it refuses. */
export const ID_SCAN_LIMIT = 64 * 1024;

/**
 * The `id` of a request frame the host refuses without handling it (too many in flight, too large,
 * binary), so the refusal reaches the call that made it. A scan, not a parse: it walks the top-level
 * object's keys, skips every other value without building it, and stops at the first `id` key or
 * after `ID_SCAN_LIMIT` characters. A frame without a readable id (not an object, no `id`, an id
 * that is neither a string nor a finite number, or one past the limit) gets `null`, as JSON-RPC 2.0
 * answers a request whose id it could not detect.
 */
export function readRequestId(frame: string | Buffer): RpcId | null {
  const text =
    typeof frame === 'string'
      ? frame.slice(0, ID_SCAN_LIMIT)
      : frame.toString('utf8', 0, Math.min(frame.length, ID_SCAN_LIMIT));
  return new IdScanner(text).topLevelId();
}

class IdScanner {
  #at = 0;
  constructor(readonly text: string) {}

  topLevelId(): RpcId | null {
    this.#space();
    if (this.text[this.#at] !== '{') return null;
    this.#at++;
    for (;;) {
      this.#space();
      if (this.text[this.#at] !== '"') return null;
      const key = this.#string();
      if (key === undefined) return null;
      this.#space();
      if (this.text[this.#at] !== ':') return null;
      this.#at++;
      this.#space();
      if (key === 'id') return this.#idValue();
      if (!this.#skipValue()) return null;
      this.#space();
      if (this.text[this.#at] !== ',') return null;
      this.#at++;
    }
  }

  #space(): void {
    while (this.#at < this.text.length && ' \t\r\n'.includes(this.text[this.#at]!)) this.#at++;
  }

  /** A JSON string at the cursor, decoded (`undefined`: unterminated or invalid). */
  #string(): string | undefined {
    const start = this.#at;
    if (!this.#skipString()) return undefined;
    try {
      return JSON.parse(this.text.slice(start, this.#at)) as string;
    } catch {
      return undefined;
    }
  }

  #skipString(): boolean {
    this.#at++;
    while (this.#at < this.text.length) {
      const c = this.text[this.#at++];
      if (c === '\\') this.#at++;
      else if (c === '"') return true;
    }
    return false;
  }

  #idValue(): RpcId | null {
    const c = this.text[this.#at];
    if (c === '"') {
      const id = this.#string();
      return id ?? null;
    }
    const match = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.#at, this.#at + 40));
    if (match === null) return null;
    const end = this.text[this.#at + match[0].length];
    // A number cut by the scan limit, or followed by something no JSON number ends with, is unread.
    if (end === undefined || !' \t\r\n,}'.includes(end)) return null;
    const id = Number(match[0]);
    return Number.isFinite(id) ? id : null;
  }

  /** Skips one value (string, number, literal, object or array), nested strings and brackets included. */
  #skipValue(): boolean {
    let depth = 0;
    while (this.#at < this.text.length) {
      const c = this.text[this.#at]!;
      if (c === '"') {
        if (!this.#skipString()) return false;
      } else if (c === '{' || c === '[') {
        depth++;
        this.#at++;
      } else if (c === '}' || c === ']') {
        if (depth === 0) return true;
        depth--;
        this.#at++;
      } else if (c === ',' && depth === 0) {
        return true;
      } else {
        this.#at++;
      }
      if (depth === 0 && (c === '"' || c === '}' || c === ']')) return true;
    }
    return false;
  }
}
