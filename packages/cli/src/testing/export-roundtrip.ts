import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ExportAttachment, ExportDocument } from '@strand/export';
import { importTranscripts } from '@strand/import';
import { openJsonlPersistence } from '@strand/persistence';
import { newSessionHeader, readCoreEvent, SessionId, SessionSeq, type SessionEvent } from '@strand/session';

/**
 * The round trip of a harness export through Strand's own importer of that harness: the
 * prompts, replies, tool calls and results of a generated session come back in order, the images
 * of its prompts (and of its results, where the target holds them there) as images with the same
 * bytes.
 */

/** An image of a type every target takes; its ref is its bytes' SHA-256, as the stores assign it. */
export interface Image {
  readonly mediaType: string;
  readonly bytes: Uint8Array;
}

export const imageRef = (image: Image): string => createHash('sha256').update(image.bytes).digest('hex');

export interface Call {
  readonly name: string;
  readonly args: Record<string, string>;
  readonly result: string;
  readonly isError: boolean;
  /** An image after the result's text. */
  readonly image: Image | undefined;
}
interface Step {
  readonly text: string;
  readonly calls: readonly Call[];
}
export interface Turn {
  readonly prompt: string;
  /** Images after the prompt's text. */
  readonly images: readonly Image[];
  readonly steps: readonly Step[];
}

const text = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== '' && !s.includes('<'));
const image = fc.record({
  mediaType: fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp'),
  bytes: fc.uint8Array({ minLength: 1, maxLength: 48 }),
});
const call = fc.record({
  name: fc.constantFrom('Bash', 'Read', 'Write'),
  args: fc.dictionary(fc.constantFrom('command', 'file_path', 'content'), text, { maxKeys: 2 }),
  result: text,
  isError: fc.boolean(),
  image: fc.option(image, { nil: undefined }),
});
const step = fc.record({ text, calls: fc.array(call, { maxLength: 2 }) });
export const turns = fc.array(
  fc.record({
    prompt: text,
    images: fc.array(image, { maxLength: 2 }),
    steps: fc.array(step, { minLength: 1, maxLength: 3 }),
  }),
  {
    minLength: 1,
    maxLength: 3,
  },
);

export type Item = readonly [string, unknown];

/** Text and then images, as a log holds them: the text alone when there is no image. */
export function withImages(text: string, images: readonly Image[]): unknown {
  return images.length === 0
    ? text
    : [{ type: 'text', text }, ...images.map((i) => ({ type: 'image', ref: imageRef(i) }))];
}

/** A result as a target without images in results holds it: the image named in its text. */
export const resultText = (c: Call): string =>
  c.image === undefined ? c.result : `${c.result}\n[image ${imageRef(c.image)}]`;

function sessionOf(
  all: readonly Turn[],
  resultAs: (c: Call) => Item,
): { events: SessionEvent[]; expected: Item[]; attachments: Map<string, ExportAttachment> } {
  const entries: [string, unknown][] = [
    ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
  ];
  const expected: Item[] = [];
  const attachments = new Map<string, ExportAttachment>();
  const attach = (images: readonly (Image | undefined)[]): void => {
    for (const i of images)
      if (i !== undefined)
        attachments.set(imageRef(i), {
          mediaType: i.mediaType,
          base64: Buffer.from(i.bytes).toString('base64'),
        });
  };
  let n = 0;
  for (const turn of all) {
    const prompt = withImages(turn.prompt, turn.images);
    attach(turn.images);
    entries.push(['turn/start', {}], ['user/message', { content: prompt, author: 'human' }]);
    expected.push(['prompt', prompt]);
    for (const s of turn.steps) {
      entries.push(['step/start', {}], ['assistant/message', { content: s.text }]);
      expected.push(['reply', s.text]);
      for (const c of s.calls) {
        const callId = `call_${n++}`;
        entries.push(['tool/call', { callId, name: c.name, arguments: JSON.stringify(c.args) }]);
        expected.push(['call', { name: c.name, args: c.args }]);
      }
      n -= s.calls.length;
      for (const c of s.calls) {
        const callId = `call_${n++}`;
        const content = withImages(c.result, c.image === undefined ? [] : [c.image]);
        attach([c.image]);
        entries.push(['tool/result', { callId, content, ...(c.isError ? { isError: true } : {}) }]);
        expected.push(resultAs(c));
      }
      entries.push(['step/end', {}]);
    }
    entries.push(['turn/end', { reason: 'completed' }]);
  }
  const start = Date.UTC(2026, 11, 5, 9, 0);
  return {
    events: entries.map(([type, data], i) => ({
      type,
      seq: SessionSeq(i),
      time: start + i * 1000,
      data: data as SessionEvent['data'],
    })),
    expected,
    attachments,
  };
}

function conversationOf(events: readonly SessionEvent[]): Item[] {
  const out: Item[] = [];
  for (const event of events) {
    const core = readCoreEvent(event);
    if (core?.type === 'user/message') out.push(['prompt', core.data.content]);
    else if (core?.type === 'assistant/message') {
      if (typeof core.data.content === 'string' ? core.data.content !== '' : core.data.content.length > 0)
        out.push(['reply', core.data.content]);
    } else if (core?.type === 'tool/call')
      out.push(['call', { name: core.data.name, args: JSON.parse(core.data.arguments) as unknown }]);
    else if (core?.type === 'tool/result')
      out.push(['result', { content: core.data.content, isError: core.data.isError === true }]);
  }
  return out;
}

/** The refs of the images a log's messages and results hold. */
function imageRefsOf(events: readonly SessionEvent[]): string[] {
  return events.flatMap((event) => {
    const core = readCoreEvent(event);
    const content =
      core?.type === 'user/message' || core?.type === 'tool/result' ? core.data.content : undefined;
    return content === undefined || typeof content === 'string'
      ? []
      : content.flatMap((b) => (b.type === 'image' ? [b.ref] : []));
  });
}

/** Where one harness's writer files an export under a scratch home, and the id it imports as. */
export interface RoundTripTarget {
  readonly harness: 'claude-code' | 'codex' | 'gemini';
  /** Writes the document's export under `root`; returns the folder to import and the imported id. */
  write(document: ExportDocument, root: string): { sourceDir: string; importedId: string };
  /** The result as the target holds it (default: as it was, its image an image). */
  readonly resultAs?: (c: Call) => Item;
}

/** Writes `text` to `root/...parts`, its folders made. */
export function place(root: string, parts: readonly string[], text: string): void {
  const file = path.join(root, ...parts);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export async function assertRoundTrip(target: RoundTripTarget): Promise<void> {
  const resultAs =
    target.resultAs ??
    ((c: Call): Item => [
      'result',
      { content: withImages(c.result, c.image === undefined ? [] : [c.image]), isError: c.isError },
    ]);
  await fc.assert(
    fc.asyncProperty(turns, async (generated) => {
      const root = mkdtempSync(path.join(tmpdir(), `strand-export-${target.harness}-`));
      try {
        const { events, expected, attachments } = sessionOf(generated, resultAs);
        const { sourceDir, importedId } = target.write(
          {
            header: newSessionHeader({
              id: SessionId('s-roundtrip'),
              createdAt: events[0]!.time,
              cwd: '/home/ana/shop',
            }),
            events,
            title: 'Round trip',
            attachments,
          },
          root,
        );
        const data = path.join(root, 'data');
        const summary = await importTranscripts({ harness: target.harness, sourceDir, dataDir: data });
        expect(summary).toMatchObject({ imported: 1, failed: 0 });
        const persistence = await openJsonlPersistence({ root: data });
        try {
          const log = await persistence.inspect(SessionId(importedId));
          expect(log.header.cwd).toBe('/home/ana/shop');
          expect(conversationOf(log.events)).toEqual(expected);
          // Each image the import holds is the one exported, byte for byte.
          for (const ref of imageRefsOf(log.events)) {
            const stored = await persistence.readAttachment(SessionId(importedId), ref);
            const sent = attachments.get(ref)!;
            expect({
              mediaType: stored.mediaType,
              base64: Buffer.from(stored.bytes).toString('base64'),
            }).toEqual(sent);
          }
        } finally {
          await persistence.close();
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }),
    { numRuns: 15 },
  );
}
