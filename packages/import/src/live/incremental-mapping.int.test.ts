import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEventInput } from '@strand/session';
import { importerFor } from '../harnesses.js';
import type { MappedFile, SessionPlan } from '../mapping/session-plan.js';
import type { HarnessImporter, SourceUnit } from '../run/harness-importer.js';
import { PACKAGE_SRC, copyInto, workspace, type Workspace } from '../testing/fixture-dirs.js';
import { COMMITTED_FIXTURE_SETS, peekedUnits } from '../testing/fixture-sets.js';
import { FileFollow } from './file-follow.js';

/**
 * Live ingest's incremental mapping: a file fed to its fold in appended pieces — cut at random
 * bytes, mid-line included, as a writer's appends land — maps after every read exactly as the
 * one-shot import maps the file's complete lines at that moment (same plans, same digest), and
 * the suffixes written after each read add up to the one-shot mapping's events. Every committed
 * fixture of this package (never /work/shared/fixtures/real); fast-check, seeded from
 * STRAND_TEST_SEED (printed by the global setup).
 */
/** The files of a folder that fold (plain JSONL), each child pointed at its parent's file. */
async function foldable(importer: HarnessImporter, root: string): Promise<SourceUnit[]> {
  const out: SourceUnit[] = [];
  for (const { unit, peek, linked } of await peekedUnits(importer, root))
    if ((await importer.incremental(unit, peek)) !== undefined) out.push(linked);
  return out;
}

/** The one-shot mapping of the file as it is now. */
async function oneShot(importer: HarnessImporter, unit: SourceUnit): Promise<MappedFile | undefined> {
  const peek = await importer.peek(unit);
  return peek.kind === 'session' ? importer.map(unit, peek) : undefined;
}

const plansOf = (mapped: MappedFile | undefined): readonly SessionPlan[] =>
  mapped?.kind === 'sessions' ? mapped.plans : [];

/** What a plan is, for comparing: header, fork parent, events, attachment keys. */
const shape = (plans: readonly SessionPlan[]): unknown =>
  plans.map((p) => ({
    header: p.header,
    fork: p.fork?.parentId,
    events: p.events,
    attachments: [...p.attachments.keys()].sort(),
  }));

/** Bytes up to and including the last newline before `cut`. */
function completeLines(bytes: Buffer, cut: number): number {
  return bytes.subarray(0, cut).lastIndexOf(0x0a) + 1;
}

let ws: Workspace;
beforeAll(() => {
  ws = workspace('strand-incremental-');
});
afterAll(() => ws.dispose());

describe('incremental mapping: appended pieces fed to the fold map as the one-shot import', () => {
  for (const [index, set] of COMMITTED_FIXTURE_SETS.entries()) {
    it.skipIf(set.foldable === false)(`${set.dir}: random byte chunkings of every file`, async () => {
      const root = path.join(ws.root, `set-${index}`);
      copyInto(path.join(PACKAGE_SRC, set.dir), root);
      const importer = importerFor(set.harness);
      const units = await foldable(importer, root);
      expect(units.length).toBeGreaterThan(0);
      for (const unit of units) {
        const bytes = readFileSync(unit.file);
        const whole = await oneShot(importer, unit);
        const name = path.relative(root, unit.file);
        try {
          await fc.assert(
            fc.asyncProperty(
              fc.uniqueArray(fc.integer({ min: 1, max: bytes.length }), { maxLength: 8 }),
              async (picked) => {
                const cuts = [...picked.sort((a, b) => a - b).filter((c) => c < bytes.length), bytes.length];
                let follow: FileFollow | undefined;
                const written = new Map<string, SessionEventInput[]>();
                let lastExpected: MappedFile | undefined;
                writeFileSync(unit.file, '');
                let at = 0;
                for (const cut of cuts) {
                  // The one-shot import of the complete lines so far, then the file as the writer
                  // left it (a partial last line included), extended in place.
                  writeFileSync(unit.file, bytes.subarray(0, completeLines(bytes, cut)));
                  const expected = await oneShot(importer, unit);
                  lastExpected = expected;
                  writeFileSync(unit.file, bytes.subarray(0, at));
                  appendFileSync(unit.file, bytes.subarray(at, cut));
                  at = cut;
                  const stat = statSync(unit.file);
                  if (follow === undefined) {
                    const peek = await importer.peek(unit);
                    if (peek.kind !== 'session') {
                      expect(plansOf(expected), `${name} at ${cut}: no session yet`).toEqual([]);
                      continue;
                    }
                    follow = new FileFollow(unit.file, (await importer.incremental(unit, peek))!);
                  } else
                    expect(await follow.continues(stat, () => undefined), `${name} at ${cut}`).toBe(true);
                  const mapped = await follow.read(stat, 'appended', () => undefined);
                  expect(shape(plansOf(mapped)), `${name} cut at ${cut}`).toEqual(shape(plansOf(expected)));
                  if (expected !== undefined && expected.kind !== 'failed' && mapped.kind !== 'failed')
                    expect(mapped.hash, `${name} digest at ${cut}`).toBe(expected.hash);
                  // What live ingest writes: each session's suffix past what it wrote.
                  for (const plan of plansOf(mapped)) {
                    const suffix = follow.suffixOf(plan);
                    // Not written from this follow yet (or no longer an extension): written whole.
                    const log = suffix === undefined ? [] : (written.get(plan.header.id) ?? []);
                    log.push(...(suffix ?? plan.events));
                    written.set(plan.header.id, log);
                    follow.wrote(plan, 0);
                  }
                }
                // The last read saw the whole file; a torn last line (the damaged fixture) is not
                // consumed until its newline, so the one-shot mapping of the complete lines is the
                // reference, and it is the whole file's when the file ends with a newline.
                if (bytes[bytes.length - 1] === 0x0a)
                  expect(shape(plansOf(lastExpected))).toEqual(shape(plansOf(whole)));
                for (const plan of plansOf(lastExpected))
                  expect(written.get(plan.header.id), `${name}: ${plan.header.id} written`).toEqual(
                    plan.events,
                  );
              },
            ),
            { numRuns: 12 },
          );
        } finally {
          writeFileSync(unit.file, bytes);
        }
      }
    });
  }
});
