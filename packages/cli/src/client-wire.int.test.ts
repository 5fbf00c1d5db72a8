/**
 * The client's wire behaviour suite against the real host (the CLI package is where the client
 * and the runtime meet): the same `describeWireSuite` the client runs against its scripted
 * `FakeHost`, so a fake that drifts from the host fails one of the two.
 */
import { describeWireSuite } from '@strand/client/testing';
import { hostFixture } from '@strand/runtime/testing';
import type { Session } from '@strand/session';

describeWireSuite('the real host', async () => {
  const fixture = await hostFixture();
  const sessions = new Map<string, Session>();
  const session = (id: string): Session => {
    const found = sessions.get(id);
    if (found === undefined) throw new Error(`the suite created no session ${id}`);
    return found;
  };
  const append = async (id: string, count: number): Promise<void> => {
    const live = session(id);
    for (let index = 0; index < count; index += 1)
      await live.append({ type: 'user/message', data: { content: `m${index}`, author: 'human' } });
  };
  return {
    url: fixture.host.rpcUrl,
    async createSession(id, eventCount) {
      // A live session of no turns holds one event (its title); the rest are user messages.
      sessions.set(id, await fixture.liveSession(id, 0));
      await append(id, eventCount - 1);
    },
    append,
    async rename(id, title) {
      await session(id).append({ type: 'session/title', data: { title } });
    },
    eventCount: (id) => session(id).events.length,
    close: () => fixture.close(),
  };
});
