import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSeq } from '@strand/session';
import { ScriptedModel } from '../model/scripted/scripted-model.js';
import { agentFixture, type AgentFixture } from '../testing/agent-fixture.js';

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

describe('drafts of a running step', () => {
  it('reports the accumulated text of each step, naming its durable step/start, and appends none of it', async () => {
    f = await agentFixture({
      model: new ScriptedModel({
        script: [
          { text: 'Looking it up now', toolCalls: [{ name: 'list_agents', arguments: {} }] },
          { text: 'Here is the answer' },
        ],
      }),
    });
    const lease = await f.controller.create();
    const session = lease.agent.session;
    const drafts: { step: SessionSeq; text: string; durable: number }[] = [];
    f.controller.onChange((change) => {
      if (change.kind === 'draft')
        drafts.push({ step: change.step, text: change.text, durable: session.cursor });
    });
    await lease.agent.prompt('look something up');
    const events = session.events;
    const stepStarts = events.filter((e) => e.type === 'step/start').map((e) => e.seq);
    expect(stepStarts).toHaveLength(2);
    // Every draft names a step/start that was durable when it was reported.
    for (const draft of drafts) {
      expect(stepStarts).toContain(draft.step);
      expect(draft.durable).toBeGreaterThan(draft.step);
    }
    const byStep = (step: number): string[] => drafts.filter((d) => d.step === step).map((d) => d.text);
    const answers = events
      .filter((e) => e.type === 'assistant/message')
      .map((e) => (e.data as { content: string }).content);
    for (const [i, step] of stepStarts.entries()) {
      const texts = byStep(step);
      expect(texts.length).toBeGreaterThan(1);
      // Accumulated, not deltas: each text extends the previous one and ends at the message.
      texts.reduce((previous, text) => {
        expect(text.startsWith(previous)).toBe(true);
        return text;
      }, '');
      expect(texts.at(-1)).toBe(answers[i]);
    }
    // Nothing transient reached the log: only the final texts, once each.
    const logged = JSON.stringify(events);
    expect(logged.split('Here is the answer').length - 1).toBe(1);
    expect(logged).not.toContain('"Here is the"');
    lease.release();
  });
});
