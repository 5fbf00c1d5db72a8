import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionId } from '@strand/session';
import { geminiImporter } from '../gemini/gemini-importer.js';
import { CHATS, LAYOUTS, SID, reply } from '../testing/gemini-nested.js';
import { openLiveBed, settled, type LiveBed } from '../testing/live-bed.js';

/**
 * Live ingest of a file whose session is told from its companions: a Gemini nested chat is written
 * whole before the person's chat records the call that ran it (gemini-cli records a call made
 * without text first when it completes).
 */
let bed: LiveBed;
let chats: string;

beforeEach(async () => {
  bed = await openLiveBed('strand-live-place-', 'gemini');
  chats = path.join(bed.ws.source, 'site', 'chats');
  mkdirSync(chats, { recursive: true });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await bed.close();
});

describe('live ingest: Gemini chats placed by their companions', () => {
  it('a nested chat followed as a session of its own becomes the child once the person’s chat records its call', async () => {
    const [person, nested] = [CHATS[0]!, CHATS[1]!];
    const personFile = LAYOUTS['JSONL (.jsonl)'](person);
    const nestedFile = LAYOUTS['JSONL (.jsonl)'](nested);
    const rows = personFile.text.split('\n').filter((l) => l.length > 0);
    // The metadata line and the prompt: the call is not recorded yet.
    writeFileSync(path.join(chats, personFile.file), rows.slice(0, 2).join('\n') + '\n');
    writeFileSync(path.join(chats, nestedFile.file), nestedFile.text);
    const live = await bed.start();
    const id = SessionId(`gemini-${SID}-a1`);
    expect((await bed.persistence.inspect(id)).header.origin).toBeUndefined();

    appendFileSync(path.join(chats, personFile.file), rows.slice(2).join('\n') + '\n');
    await settled(live, async () => (await bed.persistence.inspect(id)).header.origin === 'subagent');
    const child = await bed.persistence.inspect(id);
    expect(child.header.parentSession).toBe(`gemini-${SID}`);
    const authors = child.events
      .filter((e) => e.type === 'user/message')
      .map((e) => (e.data as { author: string }).author);
    expect(authors).toEqual(['agent', 'agent']);
    expect(bed.reports).toContainEqual(
      expect.objectContaining({ kind: 'replaced', file: expect.stringContaining(nestedFile.file) }),
    );
  });

  it('a streamed reply neither lists the folder nor peeks the companions; a recorded call does', async () => {
    const [person, nested] = [CHATS[0]!, CHATS[1]!];
    const personFile = LAYOUTS['JSONL (.jsonl)'](person);
    const nestedFile = LAYOUTS['JSONL (.jsonl)'](nested);
    const personPath = path.join(chats, personFile.file);
    const rows = personFile.text.split('\n').filter((l) => l.length > 0);
    writeFileSync(personPath, rows.slice(0, 2).join('\n') + '\n');
    writeFileSync(path.join(chats, nestedFile.file), nestedFile.text);
    // Counted through the importer live ingest uses for Gemini (the same object).
    const discover = vi.spyOn(geminiImporter, 'discover');
    const peek = vi.spyOn(geminiImporter, 'peek');
    const live = await bed.start();
    discover.mockClear();
    peek.mockClear();
    const readsOfPerson = (): number => bed.reads.filter((r) => r.file === personPath).length;

    // gemini-cli writes a reply again, whole, as it streams (an upsert by id): each write is a read.
    for (const text of ['The', 'The themes', 'The themes are several.']) {
      const before = readsOfPerson();
      appendFileSync(personPath, JSON.stringify(reply('h2', '10:01:40', text)) + '\n');
      await settled(live, () => readsOfPerson() > before);
    }
    expect(discover).not.toHaveBeenCalled();
    expect(peek).not.toHaveBeenCalled();

    // The reply written again with its delegation call: the nested chat is placed again.
    appendFileSync(personPath, rows.slice(2).join('\n') + '\n');
    const id = SessionId(`gemini-${SID}-a1`);
    await settled(live, async () => (await bed.persistence.inspect(id)).header.origin === 'subagent');
    expect(discover).toHaveBeenCalledWith(chats);
    expect(peek).toHaveBeenCalledWith(expect.objectContaining({ file: path.join(chats, nestedFile.file) }));
  });
});
