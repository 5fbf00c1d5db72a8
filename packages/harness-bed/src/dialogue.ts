import type { Exchange, Script } from './endpoint.js';
import { textOf, type BedAnswer, type BedRequest } from './wire/conversation.js';

/** An answer, or a function of the request and the thread's exchanges so far. */
export type Turn = BedAnswer | ((request: BedRequest, thread: readonly Exchange[]) => BedAnswer);

/**
 * The threads a harness's requests fall into. `main` is the session the person talks to; a
 * subagent's requests are their own thread; `utility` threads (a structured-output router, a
 * compaction summary) are the harness's own business, answered but not a conversation.
 */
export interface DialogueOptions {
  /** Answers per thread, used in order. */
  readonly threads: Readonly<Record<string, readonly Turn[]>>;
  /** Which thread a request belongs to; the default puts every request in `main`. */
  readonly classify?: (request: BedRequest) => string;
  /** Answers for requests of utility threads, given as often as asked. */
  readonly utility?: Readonly<Record<string, Turn>>;
}

/**
 * A script that answers each thread's requests in turn. A request beyond a thread's scripted
 * turns is not answered (the endpoint records it as a problem), so a harness that asks again
 * — a retry, a loop — fails the scenario with a reason rather than running on.
 */
export function dialogue(options: DialogueOptions): Script {
  const used = new Map<string, number>();
  return (request, before) => {
    // A structured-output request is a harness's own router or checker unless a scenario says otherwise.
    const thread = options.classify?.(request) ?? (request.jsonSchema !== undefined ? 'structured' : 'main');
    const history = before.filter((e) => e.thread === thread);
    const utility = options.utility?.[thread] ?? (thread === 'structured' ? {} : undefined);
    if (utility !== undefined) return { thread, answer: resolve(utility, request, history) };
    const turns = options.threads[thread];
    const index = used.get(thread) ?? 0;
    const turn = turns?.[index];
    if (turn === undefined) return undefined;
    used.set(thread, index + 1);
    return { thread, answer: resolve(turn, request, history) };
  };
}

function resolve(turn: Turn, request: BedRequest, history: readonly Exchange[]): BedAnswer {
  return typeof turn === 'function' ? turn(request, history) : turn;
}

/** Every text a request's user messages carry, joined (to find a scenario's markers). */
export function userText(request: BedRequest): string {
  return request.messages
    .filter((m) => m.role === 'user')
    .map(textOf)
    .join('\n');
}

/** The outputs of the tool results a request carries, in order. */
export function toolOutputs(request: BedRequest): string[] {
  return request.messages.flatMap((m) =>
    m.parts.flatMap((p) => (p.kind === 'tool-result' ? [p.output] : [])),
  );
}
