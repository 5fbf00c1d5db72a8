import { describeWireSuite } from '../testing/wire-suite.js';
import { FakeHost } from './fake-host.js';

// The same suite runs against the real host in packages/cli/src/client-wire.int.test.ts.
describeWireSuite('the fake host', async () => {
  const host = await FakeHost.start();
  return {
    url: host.url,
    createSession: (id, eventCount) => {
      host.addSession(id, eventCount);
      return Promise.resolve();
    },
    append: (id, count) => {
      host.append(id, count);
      return Promise.resolve();
    },
    rename: (id, title) => {
      // The host's title unit: a rename is one event, and the title row carries its seq.
      host.append(id, 1);
      host.setProjection(id, 'title', title);
      return Promise.resolve();
    },
    eventCount: (id) => host.sessions.get(id)?.events.length ?? 0,
    close: () => host.close(),
  };
});
