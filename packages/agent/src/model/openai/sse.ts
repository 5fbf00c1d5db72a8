import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One server-sent event: its type (default `message`) and its data lines joined by `\n`. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental decoder for `text/event-stream` (WHATWG HTML §9.2) over `eventsource-parser`:
 * feed it decoded text as it arrives, in chunks of any size; it returns the events completed by
 * each chunk. Lines end with LF, CRLF or CR; comments and unknown fields are ignored; an event
 * still open when the stream ends is dropped, as the spec says. The event type defaults to
 * `message` as in a browser (the parser leaves it unset).
 */
export class SseDecoder {
  readonly #completed: SseEvent[] = [];
  readonly #parser: EventSourceParser = createParser({
    onEvent: (event) => this.#completed.push({ event: event.event ?? 'message', data: event.data }),
  });

  push(text: string): SseEvent[] {
    this.#parser.feed(text);
    return this.#completed.splice(0);
  }
}
