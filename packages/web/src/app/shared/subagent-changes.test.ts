import { describe, expect, it } from 'vitest';
import { SubagentChanges } from './subagent-changes.js';

describe('SubagentChanges', () => {
  it("announces to that session's panels only; a throwing one is reported and the others still list", () => {
    const reported: unknown[] = [];
    const changes = new SubagentChanges((error) => reported.push(error));
    const heard: string[] = [];
    changes.subscribe('root', () => heard.push('root level'));
    changes.subscribe('root', () => {
      throw new Error('broken panel');
    });
    changes.subscribe('child', () => heard.push('child level'));
    changes.announce('root');
    expect(heard).toEqual(['root level']);
    expect(reported).toHaveLength(1);
    changes.announce('nobody');
    expect(heard).toEqual(['root level']);
  });

  it('the same listener twice is two subscriptions, each ended by its own unsubscribe', () => {
    const changes = new SubagentChanges();
    let heard = 0;
    const listener = (): void => void heard++;
    const offRoot = changes.subscribe('root', listener);
    const offOwn = changes.subscribe('root', listener);
    changes.announce('root');
    expect(heard).toBe(2);
    offRoot();
    changes.announce('root');
    expect(heard).toBe(3);
    offOwn();
    changes.announce('root');
    expect(heard).toBe(3);
    // Nothing is kept for a session no panel listens to.
    expect(changes.size).toBe(0);
  });
});
