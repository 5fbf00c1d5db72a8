import type { SessionEvent } from '@strand/session';

/**
 * Where a spawned fork leaves its parent's log: the start of the parent turn whose spawn call
 * returned this child's thread id. The fork replays the parent up to that call, mid-turn; a fork
 * may only cut at a closed-turn boundary, so the child inherits the turns before it and its own
 * log begins with its own first turn. Undefined when the parent holds no such result (the
 * parent's copy ends before the spawn returned).
 */
export function spawnCut(
  childThreadId: string,
): (parentEvents: readonly SessionEvent[]) => number | undefined {
  return (parentEvents) => {
    let callId: string | undefined;
    for (const event of parentEvents) {
      if (event.type !== 'tool/result') continue;
      const data = event.data as { callId?: unknown; content?: unknown };
      if (typeof data.callId === 'string' && JSON.stringify(data.content ?? '').includes(childThreadId)) {
        callId = data.callId;
        break;
      }
    }
    if (callId === undefined) return undefined;
    const call = parentEvents.findIndex(
      (e) => e.type === 'tool/call' && (e.data as { callId?: unknown }).callId === callId,
    );
    for (let i = call; i >= 0; i--) if (parentEvents[i]!.type === 'turn/start') return i;
    return undefined;
  };
}
