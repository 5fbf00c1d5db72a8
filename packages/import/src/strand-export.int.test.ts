import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  renderClaudeTranscript,
  renderCodexRollout,
  renderGeminiChat,
  type ExportDocument,
} from '@strand/export';
import { openJsonlPersistence } from '@strand/persistence';
import { newSessionHeader, SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import { importerFor } from './harnesses.js';
import { importTranscripts } from './index.js';
import type { SessionPlan } from './mapping/session-plan.js';
import type { Harness } from './types.js';
import { openLiveBed, settled } from './testing/live-bed.js';

/**
 * Strand's own exports, read back by the importer of the harness they were written for
 * (`mapping/strand-export.ts`): an untouched export of a stored session is not a second copy of
 * it; one the harness continued is imported linked to its origin, the `session/continued-from`
 * event right after the exported prefix; and the prefix law holds over the continued file. The
 * origin's first prompt holds an image, carried as the harness's own image record.
 */

const ORIGIN = 's-origin-1';
/** A 1×1 PNG in the first prompt, by the ref a store gives it (its SHA-256). */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const IMAGE_REF = createHash('sha256').update(Buffer.from(PNG, 'base64')).digest('hex');
const start = Date.UTC(2026, 11, 5, 9, 30);

function originDocument(): ExportDocument {
  const entries: [string, unknown][] = [
    ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['turn/start', {}],
    [
      'user/message',
      {
        content: [
          { type: 'text', text: 'List the files' },
          { type: 'image', ref: IMAGE_REF },
        ],
        author: 'human',
      },
    ],
    ['step/start', {}],
    ['assistant/message', { content: 'Looking.' }],
    ['tool/call', { callId: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }],
    ['tool/result', { callId: 'c1', content: 'a.txt' }],
    ['step/end', {}],
    ['assistant/message', { content: 'One file: a.txt — é ✓.' }],
    ['turn/end', { reason: 'completed' }],
  ];
  const events: SessionEvent[] = entries.map(([type, data], i) => ({
    type,
    seq: SessionSeq(i),
    time: start + i * 60_000,
    data: data as SessionEvent['data'],
  }));
  return {
    header: newSessionHeader({ id: SessionId(ORIGIN), createdAt: start, cwd: '/home/ana/shop' }),
    events,
    title: 'Files',
    attachments: new Map([[IMAGE_REF, { mediaType: 'image/png', base64: PNG }]]),
  };
}
const CUT = 9;
const at = (minutes: number): string => new Date(start + minutes * 60_000).toISOString();

interface Target {
  readonly harness: Harness;
  /** The export filed under `root`: the folder to import, the file, the id it imports as. */
  write(root: string, document: ExportDocument): { sourceDir: string; file: string; importedId: string };
  /** What the harness appends when it resumes the export: a prompt and its answer. */
  continuation(file: string): string[];
}

function place(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const TARGETS: readonly Target[] = [
  {
    harness: 'claude-code',
    write(root, document) {
      const t = renderClaudeTranscript(document);
      const file = path.join(root, 'projects', t.projectFolder, t.fileName);
      place(file, t.text);
      return { sourceDir: path.join(root, 'projects'), file, importedId: `claude-${t.sessionId}` };
    },
    continuation() {
      const sessionId = 'x';
      return [
        JSON.stringify({
          parentUuid: null,
          isSidechain: false,
          type: 'user',
          message: { role: 'user', content: 'And now?' },
          uuid: 'c0ffee00-0000-4000-8000-000000000001',
          timestamp: at(30),
          cwd: '/home/ana/shop',
          sessionId,
        }),
        JSON.stringify({
          parentUuid: 'c0ffee00-0000-4000-8000-000000000001',
          isSidechain: false,
          type: 'assistant',
          message: {
            id: 'msg_cont_1',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text: 'Continued here.' }],
          },
          uuid: 'c0ffee00-0000-4000-8000-000000000002',
          timestamp: at(31),
          cwd: '/home/ana/shop',
          sessionId,
        }),
      ];
    },
  },
  {
    harness: 'codex',
    write(root, document) {
      const r = renderCodexRollout(document);
      const file = path.join(root, 'sessions', r.dayFolder, r.fileName);
      place(file, r.text);
      return { sourceDir: path.join(root, 'sessions'), file, importedId: `codex-${r.threadId}` };
    },
    continuation() {
      return [
        JSON.stringify({ timestamp: at(30), type: 'event_msg', payload: { type: 'task_started' } }),
        JSON.stringify({
          timestamp: at(30),
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And now?' }] },
        }),
        JSON.stringify({
          timestamp: at(31),
          type: 'response_item',
          payload: {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'Continued here.' }],
          },
        }),
      ];
    },
  },
  {
    harness: 'gemini',
    write(root, document) {
      const c = renderGeminiChat(document);
      place(path.join(root, 'tmp', 'shop', '.project_root'), c.cwd);
      const file = path.join(root, 'tmp', 'shop', 'chats', c.fileName);
      place(file, c.text);
      return { sourceDir: path.join(root, 'tmp'), file, importedId: `gemini-${c.sessionId}` };
    },
    continuation() {
      return [
        JSON.stringify({ id: 'cont-1', timestamp: at(30), type: 'user', content: [{ text: 'And now?' }] }),
        JSON.stringify({
          id: 'cont-2',
          timestamp: at(31),
          type: 'gemini',
          content: 'Continued here.',
          model: 'gemini-2.5-pro',
        }),
      ];
    },
  },
];

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-export-import-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function storeOrigin(data: string): Promise<void> {
  const persistence = await openJsonlPersistence({ root: data });
  try {
    await persistence.create({ header: originDocument().header, materialize: true });
  } finally {
    await persistence.close();
  }
}

async function eventsOf(data: string, id: string): Promise<readonly SessionEvent[]> {
  const persistence = await openJsonlPersistence({ root: data });
  try {
    return (await persistence.inspect(SessionId(id))).events;
  } finally {
    await persistence.close();
  }
}

async function plansOf(harness: Harness, file: string, sourceDir: string): Promise<readonly SessionPlan[]> {
  const importer = importerFor(harness);
  const unit = (await importer.discover(sourceDir)).find((u) => u.file === file)!;
  const peek = await importer.peek(unit);
  if (peek.kind !== 'session') return [];
  const mapped = await importer.map(unit, peek);
  return mapped.kind === 'sessions' ? mapped.plans : [];
}

const texts = (events: readonly { type: string; data: unknown }[]): string[] =>
  events.flatMap((e) =>
    e.type === 'user/message' || e.type === 'assistant/message'
      ? [JSON.stringify((e.data as { content: unknown }).content)]
      : [],
  );

describe.each(TARGETS)('a Strand export read by the $harness importer', (target) => {
  it('is skipped while it is still exactly the export of a stored session', async () => {
    const data = path.join(root, 'data');
    await storeOrigin(data);
    const { sourceDir, file } = target.write(path.join(root, 'home'), originDocument());
    const summary = await importTranscripts({ harness: target.harness, sourceDir, dataDir: data });
    expect(summary).toMatchObject({ imported: 0, failed: 0, skipped: 1 });
    expect(summary.reports).toContainEqual({
      file,
      line: null,
      kind: 'skipped-file',
      reason: `Strand's export of ${ORIGIN}`,
    });
    // Unchanged, it is not read again.
    const again = await importTranscripts({ harness: target.harness, sourceDir, dataDir: data });
    expect(again).toMatchObject({ imported: 0, updated: 0, failed: 0 });
  });

  it('is imported as any transcript when its origin is not stored (the file moved machines)', async () => {
    const data = path.join(root, 'data');
    const { sourceDir, importedId } = target.write(path.join(root, 'home'), originDocument());
    const summary = await importTranscripts({ harness: target.harness, sourceDir, dataDir: data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    const events = await eventsOf(data, importedId);
    expect(events.some((e) => e.type === 'session/continued-from')).toBe(false);
    // The prompt's image came back an image, by the same content address (the same bytes).
    expect(events.find((e) => e.type === 'user/message')?.data).toMatchObject({
      content: [
        { type: 'text', text: 'List the files' },
        { type: 'image', ref: IMAGE_REF },
      ],
    });
  });

  it('once the harness continued it, is imported linked to its origin, right after the exported prefix', async () => {
    const data = path.join(root, 'data');
    await storeOrigin(data);
    const home = path.join(root, 'home');
    const { sourceDir, file, importedId } = target.write(home, originDocument());
    const exported = (await plansOf(target.harness, file, sourceDir))[0]!.events;
    const appended = target.continuation(file);
    writeFileSync(file, appended.map((l) => `${l}\n`).join(''), { flag: 'a' });

    const summary = await importTranscripts({ harness: target.harness, sourceDir, dataDir: data });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    const events = await eventsOf(data, importedId);
    const at = events.findIndex((e) => e.type === 'session/continued-from');
    expect(at).toBe(exported.length);
    expect(events[at]!.data).toEqual({ session: ORIGIN, cut: CUT, harness: target.harness });
    expect(events.slice(0, at).map(({ type, data }) => ({ type, data }))).toEqual(
      exported.map(({ type, data }) => ({ type, data })),
    );
    expect(texts(events.slice(at))).toEqual([JSON.stringify('And now?'), JSON.stringify('Continued here.')]);
    expect(events.filter((e) => e.type === 'session/continued-from')).toHaveLength(1);
  });

  it('keeps the prefix law over the continued file: any prefix maps to a prefix of its events', async () => {
    const home = path.join(root, 'home');
    const { sourceDir, file } = target.write(home, originDocument());
    writeFileSync(
      file,
      target
        .continuation(file)
        .map((l) => `${l}\n`)
        .join(''),
      { flag: 'a' },
    );
    const whole = readFileSync(file);
    const full = (await plansOf(target.harness, file, sourceDir))[0]!;
    const cuts = new Set<number>();
    for (let i = 0; i < whole.length; i++) if (whole[i] === 0x0a) cuts.add(i + 1).add(i - 3);
    for (const cut of [...cuts].filter((c) => c > 0 && c < whole.length).sort((a, b) => a - b)) {
      writeFileSync(file, whole.subarray(0, cut));
      for (const plan of await plansOf(target.harness, file, sourceDir)) {
        expect(plan.header, `cut ${cut}`).toEqual(full.header);
        expect(plan.events, `cut ${cut}`).toEqual(full.events.slice(0, plan.events.length));
      }
    }
    writeFileSync(file, whole);
  });
});

describe('a Strand export followed by live ingest (serve --watch)', () => {
  it('is skipped while untouched, then imported linked to its origin once the harness continues it', async () => {
    const target = TARGETS.find((t) => t.harness === 'codex')!;
    const bed = await openLiveBed('strand-live-export-', 'codex');
    try {
      await bed.persistence.create({ header: originDocument().header, materialize: true });
      // The bed watches `ws.source` as Codex's `sessions` folder.
      const written = target.write(path.join(root, 'staged'), originDocument());
      const file = path.join(bed.ws.source, path.relative(written.sourceDir, written.file));
      mkdirSync(path.dirname(file), { recursive: true });
      copyFileSync(written.file, file);
      const live = await bed.start();
      await settled(live, () => bed.reports.some((r) => r.file === file));
      expect(bed.reports).toContainEqual({
        file,
        line: null,
        kind: 'skipped-file',
        reason: `Strand's export of ${ORIGIN}`,
      });
      const stored = async (): Promise<boolean> =>
        (await bed.persistence.list()).some((s) => s.header.id === written.importedId);
      expect(await stored()).toBe(false);

      appendFileSync(
        file,
        target
          .continuation(file)
          .map((l) => `${l}\n`)
          .join(''),
      );
      await settled(live, stored);
      const events = (await bed.persistence.inspect(SessionId(written.importedId))).events;
      const link = events.filter((e) => e.type === 'session/continued-from');
      expect(link.map((e) => e.data)).toEqual([{ session: ORIGIN, cut: CUT, harness: 'codex' }]);
      expect(texts(events.slice(events.indexOf(link[0]!)))).toEqual([
        JSON.stringify('And now?'),
        JSON.stringify('Continued here.'),
      ]);
    } finally {
      await bed.close();
    }
  });
});
