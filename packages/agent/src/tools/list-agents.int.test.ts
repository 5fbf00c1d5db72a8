import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@strand/session';
import { agentFixture, type AgentFixture } from '../testing/agent-fixture.js';

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

const lastToolResult = (events: readonly SessionEvent[]): unknown =>
  events.findLast((e) => e.type === 'tool/result')?.data;

describe('list_agents', () => {
  it("is registered by default and lists the caller's children through the subagent listing", async () => {
    f = await agentFixture();
    const parent = await f.controller.create();
    await parent.agent.prompt('spawn a continuable agent "scout": look around');
    await f.controller.whenSettled();
    await parent.agent.prompt('list agents');
    expect(lastToolResult(parent.agent.session.events)).toEqual({
      callId: expect.any(String) as string,
      content: '1 child agent:\n- id="s-2" mode=continuable label="scout" status=inactive hasChildren=false',
    });
    parent.release();
  });

  it('bad arguments come back as an error result with the listing code', async () => {
    f = await agentFixture();
    const parent = await f.controller.create();
    await parent.agent.prompt('call list_agents {"scope":"everyone"}');
    expect(lastToolResult(parent.agent.session.events)).toMatchObject({
      isError: true,
      code: 'SUBAGENT_CONTROL_INVALID_ARGUMENTS',
    });
    parent.release();
  });
});
