/** One server-sent event: its type (default `message`) and its data lines joined by `\n`. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental decoder for `text/event-stream` (WHATWG HTML §9.2): feed it decoded text as it
 * arrives, in chunks of any size; it returns the events completed by each chunk. Lines end with
 * LF, CRLF or CR (a CR at a chunk's end waits for a possible LF). Comments and unknown fields are
 * ignored; an event still open when the stream ends is dropped, as the spec says.
 */
export class SseDecoder {
  #buffer = '';
  #data: string[] = [];
  #event = '';

  push(text: string): SseEvent[] {
    this.#buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.#buffer.length; i++) {
      const ch = this.#buffer.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      if (ch === 13 && i === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(start, i);
      if (ch === 13 && this.#buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
      const event = this.#line(line);
      if (event !== undefined) events.push(event);
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  #line(line: string): SseEvent | undefined {
    if (line.length === 0) {
      if (this.#data.length === 0) {
        this.#event = '';
        return undefined;
      }
      const event = {
        event: this.#event.length === 0 ? 'message' : this.#event,
        data: this.#data.join('\n'),
      };
      this.#data = [];
      this.#event = '';
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    return undefined;
  }
}
