import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bedHarness,
  DRIVERS,
  dialogue,
  openWorkspace,
  startModelEndpoint,
  type BedHarness,
  type BedPart,
} from '@strand/harness-bed';
import { STRAND_EXPORT_MARKER, strandExportOf } from '@strand/export';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import { importTranscripts } from '@strand/import';
import { Session, SessionId, messageText, newSessionHeader, readCoreEvent } from '@strand/session';
import { strand } from './strand-process.js';

const AT = Date.parse('2026-12-05T09:00:00Z');

/** The prefix of the id each importer gives a harness's session. */
const IMPORT_PREFIX = { 'claude-code': 'claude', codex: 'codex', gemini: 'gemini' } as const;

/** A 1×1 PNG: the image the first prompt holds. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The Strand session every target resumes: two turns, the first with a tool call, its prompt with
 * an image (`ref`: the stored PNG).
 */
const eventsWith = (ref: string) =>
  [
    { type: 'model/selection', data: { provider: 'anthropic', model: 'claude-sonnet-4-5' } },
    { type: 'turn/start', data: {} },
    {
      type: 'user/message',
      data: {
        content: [
          { type: 'text', text: 'Please list the folder.' },
          { type: 'image', ref },
        ],
        author: 'human',
      },
    },
    { type: 'step/start', data: {} },
    { type: 'assistant/message', data: { content: 'Listing it now.' } },
    { type: 'tool/call', data: { callId: 'toolu_strand_1', name: 'Bash', arguments: '{"command":"ls"}' } },
    { type: 'tool/result', data: { callId: 'toolu_strand_1', content: 'README.md\nsrc' } },
    { type: 'step/end', data: {} },
    { type: 'step/start', data: {} },
    { type: 'assistant/message', data: { content: 'A README and a src folder.' } },
    { type: 'step/end', data: {} },
    { type: 'turn/end', data: { reason: 'completed' } },
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: 'Which one is the code?', author: 'human' } },
    { type: 'assistant/message', data: { content: 'The src folder holds the code.' } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ].map((event, i) => ({ ...event, time: AT + i * 1000 }));

/**
 * What the resumed harness must send: every earlier prompt (the image with its bytes), reply, call
 * and result, then the new prompt.
 */
const SAID = [
  { role: 'user', parts: ['text:Please list the folder.', `image:image/png:${PNG.toString('base64')}`] },
  { role: 'assistant', parts: ['text:Listing it now.', 'call:Bash {"command":"ls"}'] },
  { role: 'user', parts: ['result:README.md\nsrc'] },
  { role: 'assistant', parts: ['text:A README and a src folder.'] },
  { role: 'user', parts: ['text:Which one is the code?'] },
  { role: 'assistant', parts: ['text:The src folder holds the code.'] },
  { role: 'user', parts: ['text:Please go on.'] },
];

/**
 * A Strand session exported with `strand export --to <harness>` and continued by the real
 * harness (the bed's pin, offline against the bed's endpoint): the request it sends on resume
 * carries every earlier prompt (an image as an image, its bytes), reply, tool call and result,
 * and the harness keeps the marker.
 */
export function describeExportBed(harness: BedHarness & ('claude-code' | 'codex' | 'gemini')): void {
  let cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step();
    cleanup = [];
  });
  describe(`strand export --to ${harness}, resumed by the real harness`, { timeout: 300_000 }, () => {
    const bed = bedHarness(harness);
    const title =
      bed.kind === 'missing'
        ? bed.reason
        : `${harness} ${bed.installed.pin.version} resumes the export and sends the whole conversation; Strand imports the continued session`;
    it.skipIf(bed.kind === 'missing')(title, async () => {
      if (bed.kind === 'missing') return;
      const workspace = await openWorkspace(`${harness}-export`);
      cleanup.push(() => workspace.remove());
      const data = mkdtempSync(path.join(tmpdir(), 'strand-export-bed-'));
      cleanup.push(() => rmSync(data, { recursive: true, force: true }));

      const persistence = await openJsonlPersistence({ root: data });
      const header = newSessionHeader({ id: SessionId('made-in-strand'), createdAt: AT, cwd: workspace.cwd });
      const { incarnation } = await persistence.create({ header });
      const ref = await persistence.putAttachment(header.id, { bytes: PNG, mediaType: 'image/png' });
      const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
      await session.append(eventsWith(ref));
      await persistence.close();

      const endpoint = await startModelEndpoint(
        dialogue({ threads: { main: [{ text: 'Continued here.' }] } }),
      );
      cleanup.push(() => endpoint.close());
      await DRIVERS[harness].prepare(workspace, endpoint);
      const { resumeId, path: file } = exportToHome('made-in-strand', harness, workspace.home, data);
      // Imported before the harness resumed it, the export is a second copy of its origin: skipped.
      const sourceDir = DRIVERS[harness].transcriptRoot(workspace);
      const untouched = await importTranscripts({ harness, sourceDir, dataDir: data });
      expect(untouched).toMatchObject({ imported: 0, failed: 0 });
      expect(untouched.reports).toContainEqual({
        file,
        line: null,
        kind: 'skipped-file',
        reason: "Strand's export of made-in-strand",
      });

      const run = await DRIVERS[harness].prompt(bed.installed, workspace, endpoint, {
        text: 'Please go on.',
        resume: resumeId,
      });
      expect(endpoint.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);

      const request = endpoint.exchanges.find((e) => e.thread === 'main')!.request;
      // Messages as the conversation has them: the Responses wire sends a reply's text and its
      // calls as items of their own, which read as one message each.
      const said: { role: string; parts: string[] }[] = [];
      for (const m of request.messages) {
        const parts = m.parts.filter((p) => !harnessContext(p)).map(short);
        if (parts.length === 0) continue;
        const last = said.at(-1);
        if (last?.role === m.role) last.parts.push(...parts);
        else said.push({ role: m.role, parts });
      }
      expect(said).toEqual(SAID);
      // The harness appended its turn and kept the first line: the marker names the origin
      // still, and the file is no longer Strand's to overwrite.
      const continued = readFileSync(file, 'utf8');
      expect(continued).toContain('Continued here.');
      const first = JSON.parse(continued.slice(0, continued.indexOf('\n'))) as Record<string, unknown>;
      expect(first[STRAND_EXPORT_MARKER]).toMatchObject({ origin: 'made-in-strand', cut: 15 });
      expect(strandExportOf(continued)).toBeUndefined();
      // Strand's importer of the harness, into the data folder that holds the origin, reads the
      // continued session linked to its origin: the export, the link, then the new turn.
      const summary = await importTranscripts({ harness, sourceDir, dataDir: data });
      // The continued session alone (Gemini CLI's resume also starts a chat holding only its
      // injected context: no session, skipped).
      const continuedId = `${IMPORT_PREFIX[harness]}-${resumeId}`;
      expect(summary.failed).toBe(0);
      expect(summary.sessions).toEqual([{ id: continuedId, file, outcome: 'imported' }]);
      const store = await openJsonlPersistence({ root: data });
      cleanup.push(() => store.close());
      const log = await store.inspect(SessionId(continuedId));
      const story = log.events.flatMap((e): unknown[] => {
        const core = readCoreEvent(e);
        if (core?.type === 'session/continued-from') return [core.data];
        return core?.type === 'user/message' && core.data.author !== 'system'
          ? [messageText(core.data.content, 'left out')]
          : [];
      });
      expect(story).toEqual([
        'Please list the folder.',
        'Which one is the code?',
        { session: 'made-in-strand', cut: 15, harness },
        'Please go on.',
      ]);
      // Right after the exported prefix: every event before the link is one the export holds.
      const link = log.events.findIndex((e) => e.type === 'session/continued-from');
      const replies = log.events.slice(0, link).flatMap((e) => {
        const core = readCoreEvent(e);
        return core?.type === 'assistant/message' ? [messageText(core.data.content)] : [];
      });
      // The first prompt's image came back an image, with the bytes Strand exported.
      const images = log.events.flatMap((e) => {
        const core = readCoreEvent(e);
        const content = core?.type === 'user/message' ? core.data.content : '';
        return typeof content === 'string' ? [] : content.flatMap((b) => (b.type === 'image' ? [b.ref] : []));
      });
      expect(images).toHaveLength(1);
      const stored = await store.readAttachment(SessionId(continuedId), images[0]!);
      expect(Buffer.from(stored.bytes).equals(PNG)).toBe(true);
      expect(replies.filter((t) => t !== '')).toEqual([
        'Listing it now.',
        'A README and a src folder.',
        'The src folder holds the code.',
      ]);
    });
  });
}

/**
 * A session made elsewhere: a real Codex CLI run (a shell call and its output, then a reply),
 * imported by Strand, exported with `strand export --to <harness>` and resumed by the real
 * target harness, whose request must carry the Codex conversation in order before the new prompt.
 */
export function describeImportedCodexExportBed(
  harness: BedHarness & ('claude-code' | 'codex' | 'gemini'),
): void {
  let cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step();
    cleanup = [];
  });
  describe(`an imported Codex session, exported --to ${harness} and resumed`, { timeout: 300_000 }, () => {
    const origin = bedHarness('codex');
    const target = bedHarness(harness);
    const missing = origin.kind === 'missing' ? origin : target.kind === 'missing' ? target : undefined;
    const title =
      missing?.reason ??
      `${harness} resumes a session the real Codex CLI made, as Strand imported and exported it`;
    it.skipIf(missing !== undefined)(title, async () => {
      if (origin.kind === 'missing' || target.kind === 'missing') return;
      const workspace = await openWorkspace(`codex-to-${harness}`);
      cleanup.push(() => workspace.remove());
      const data = mkdtempSync(path.join(tmpdir(), 'strand-export-bed-codex-'));
      cleanup.push(() => rmSync(data, { recursive: true, force: true }));

      // The origin: Codex runs `ls` for real (the file below) and replies.
      writeFileSync(path.join(workspace.cwd, 'marker-file.txt'), 'x\n');
      const codexEndpoint = await startModelEndpoint(
        dialogue({
          threads: {
            main: [
              { text: 'Listing it now.', toolCalls: [{ name: 'exec_command', input: { cmd: 'ls' } }] },
              { text: 'One marker file.' },
            ],
          },
        }),
      );
      cleanup.push(() => codexEndpoint.close());
      await DRIVERS.codex.prepare(workspace, codexEndpoint);
      const made = await DRIVERS.codex.prompt(origin.installed, workspace, codexEndpoint, {
        text: 'Please list the folder.',
      });
      expect(codexEndpoint.problems).toEqual([]);
      expect(made.code, made.stderr).toBe(0);
      const imported = await importTranscripts({
        harness: 'codex',
        sourceDir: DRIVERS.codex.transcriptRoot(workspace),
        dataDir: data,
      });
      expect(imported).toMatchObject({ imported: 1, failed: 0 });
      const originId = `codex-${made.sessionId!}`;

      const endpoint = await startModelEndpoint(
        dialogue({ threads: { main: [{ text: 'Continued here.' }] } }),
      );
      cleanup.push(() => endpoint.close());
      await DRIVERS[harness].prepare(workspace, endpoint);
      // What a Codex session holds that the target cannot (its notes) is named, one line a kind.
      const { resumeId } = exportToHome(
        originId,
        harness,
        workspace.home,
        data,
        /^(strand: .+ not carried\n)*$/,
      );
      const run = await DRIVERS[harness].prompt(target.installed, workspace, endpoint, {
        text: 'Please go on.',
        resume: resumeId,
      });
      expect(endpoint.problems).toEqual([]);
      expect(run.code, run.stderr).toBe(0);

      // What the target sent: the Codex conversation (its own context aside) in order, then the new
      // prompt. The call's output is the real `ls` of the workspace.
      const request = endpoint.exchanges.find((e) => e.thread === 'main')!.request;
      const parts = request.messages.flatMap((m) =>
        m.parts.filter((p) => !harnessContext(p)).map((p) => `${m.role} ${short(p)}`),
      );
      const where = (pattern: RegExp): number => parts.findIndex((p) => pattern.test(p));
      const order = [
        where(/^user text:Please list the folder\.$/),
        where(/^assistant text:Listing it now\.$/),
        where(/^assistant call:exec_command .*"ls"/),
        where(/^user result:.*marker-file\.txt/s),
        where(/^assistant text:One marker file\.$/),
        where(/^user text:Please go on\.$/),
      ];
      expect(
        order.every((i) => i >= 0),
        parts.join('\n'),
      ).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
    });
  });
}

/** What `strand export --to <harness> --json` prints. */
export interface ExportedTo {
  readonly path: string;
  readonly resumeId: string;
  readonly command: string;
  readonly children: readonly string[];
}

/**
 * `strand export <id> --to <harness> --home <home> --json --data <data>` as a real process: it
 * exits 0 and its stderr matches `stderr` (nothing at all by default); its JSON.
 */
export function exportToHome(
  id: string,
  harness: BedHarness & ('claude-code' | 'codex' | 'gemini'),
  home: string,
  data: string,
  stderr: RegExp | '' = '',
): ExportedTo {
  const exported = strand('export', id, '--to', harness, '--home', home, '--json', '--data', data);
  if (stderr === '') expect(exported.stderr).toBe('');
  else expect(exported.stderr).toMatch(stderr);
  expect(exported.code).toBe(0);
  return JSON.parse(exported.stdout) as ExportedTo;
}

/** Text the harness adds of its own (a reminder, its environment or session context). */
export const harnessContext = (part: BedPart): boolean =>
  part.kind === 'text' && (part.text.includes('<system-reminder>') || part.text.trimStart().startsWith('<'));

/** One part of a request as a line to compare (`text:`, `call:`, `result:`, `image`). */
export function short(part: BedPart): string {
  switch (part.kind) {
    case 'text':
      return `text:${part.text.trim()}`;
    case 'tool-call':
      return `call:${part.name} ${JSON.stringify(part.input)}`;
    case 'tool-result':
      return `result:${part.output}${part.isError ? ' (error)' : ''}`;
    case 'image':
      return `image:${part.mediaType}:${part.data}`;
  }
}
