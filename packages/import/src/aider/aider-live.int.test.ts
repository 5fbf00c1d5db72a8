import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';
import { aiderFacts, aiderId } from './peek.js';

const HISTORY = '.aider.chat.history.md';
const START = '\n# aider chat started at 2026-03-01 09:00:00\n\n> Aider v0.86.1  \n';

let bed: LiveBed;
beforeEach(async () => {
  bed = await openLiveBed('strand-live-aider-', 'aider');
});
afterEach(() => bed.close());

describe('aider: live ingest over a tree of projects', () => {
  it('a history appended to extends its sessions; one inside node_modules is never read', async () => {
    const project = path.join(bed.ws.source, 'webapp');
    mkdirSync(path.join(project, 'node_modules', 'dep'), { recursive: true });
    const file = path.join(project, HISTORY);
    writeFileSync(file, `${START}\n#### first  \n\nA reply.\n\n> Tokens: 100 sent, 5 received.  \n`);
    const live = await bed.start();
    const id = aiderId(aiderFacts(file).key, 0);
    const events = async (): Promise<number> =>
      (await bed.persistence.list()).some((s) => s.header.id === id)
        ? (await bed.persistence.inspect(id)).events.length
        : 0;
    await settled(live, async () => (await events()) > 0);
    const before = await bed.persistence.inspect(id);
    // Aider appends the next exchange; a dependency's history beside it changes too.
    appendFileSync(file, '\n#### second  \n\nAnother reply.\n\n> Tokens: 200 sent, 7 received.  \n');
    writeFileSync(
      path.join(project, 'node_modules', 'dep', HISTORY),
      `${START}\n#### not mine  \n\nno\n\n> Tokens: 1 sent, 1 received.  \n`,
    );
    await settled(live, async () => (await events()) > before.events.length);
    const after = await bed.persistence.inspect(id);
    expect(after.incarnation).toBe(before.incarnation);
    expect(after.events.slice(0, before.events.length)).toEqual(before.events);
    expect(
      after.events
        .filter((e) => e.type === 'assistant/message')
        .map((e) => (e.data as { content: string }).content),
    ).toEqual(['A reply.', 'Another reply.']);
    expect((await bed.persistence.list()).map((s) => s.header.id)).toEqual([id]);
    expect(bed.reads.filter((r) => r.file.includes('node_modules'))).toEqual([]);
    expect(bed.reads.at(-1)).toMatchObject({ file, mode: 'appended' });
  });
});
