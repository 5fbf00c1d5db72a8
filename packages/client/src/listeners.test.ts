import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedListeners } from './listeners.js';

describe('KeyedListeners', () => {
  it('reaches the listeners of the emitted key only; a thrower is reported and the others still run', () => {
    const reported: unknown[] = [];
    const listeners = new KeyedListeners<number>((error) => reported.push(error));
    const heard: string[] = [];
    listeners.subscribe('a', (value) => heard.push(`a1:${value}`));
    listeners.subscribe('a', () => {
      throw new Error('boom');
    });
    listeners.subscribe('a', (value) => heard.push(`a3:${value}`));
    listeners.subscribe('b', (value) => heard.push(`b:${value}`));
    listeners.emit('a', 1);
    listeners.emit('c', 2);
    expect(heard).toEqual(['a1:1', 'a3:1']);
    expect(reported).toHaveLength(1);
  });

  it('a listener leaving during an emit does not keep the others from hearing it', () => {
    const listeners = new KeyedListeners<void>();
    const heard: string[] = [];
    const offFirst = listeners.subscribe('s', () => {
      heard.push('first');
      offFirst();
      offSecond();
    });
    const offSecond = listeners.subscribe('s', () => heard.push('second'));
    listeners.emit('s');
    listeners.emit('s');
    expect(heard).toEqual(['first', 'second']);
    expect(listeners.size).toBe(0);
  });

  it('matches a model over any run of subscribes, unsubscribes and emits, and forgets emptied keys', () => {
    const keys = ['a', 'b', 'c'];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('subscribe' as const), key: fc.constantFrom(...keys) }),
      fc.record({ kind: fc.constant('unsubscribe' as const), index: fc.nat(20) }),
      fc.record({ kind: fc.constant('emit' as const), key: fc.constantFrom(...keys) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const listeners = new KeyedListeners<string>();
        const live: { key: string; id: number; off: () => void }[] = [];
        const heard: string[] = [];
        const expected: string[] = [];
        let next = 0;
        for (const step of ops) {
          if (step.kind === 'subscribe') {
            const id = next++;
            const off = listeners.subscribe(step.key, (value) => heard.push(`${id}:${value}`));
            live.push({ key: step.key, id, off });
          } else if (step.kind === 'unsubscribe') {
            if (live.length === 0) continue;
            const [gone] = live.splice(step.index % live.length, 1);
            gone!.off();
            gone!.off(); // idempotent
          } else {
            for (const entry of live) if (entry.key === step.key) expected.push(`${entry.id}:${step.key}`);
            listeners.emit(step.key, step.key);
          }
        }
        expect(heard).toEqual(expected);
        expect(listeners.size).toBe(new Set(live.map((entry) => entry.key)).size);
      }),
    );
  });
});
