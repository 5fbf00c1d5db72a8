import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importerFor } from './harnesses.js';
import type { SessionPlan } from './mapping/session-plan.js';
import type { HarnessImporter, SourceUnit } from './run/harness-importer.js';
import { codexRollout } from './testing/synthetic.js';
import { PACKAGE_SRC, copyInto, workspace, type Workspace } from './testing/fixture-dirs.js';
import { COMMITTED_FIXTURE_SETS, peekedUnits } from './testing/fixture-sets.js';

/**
 * The import's prefix law, which live ingest rests on: **mapping any prefix of a transcript file
 * yields, for every session it holds, a prefix of the events of mapping the whole file** — with
 * the same header, so a growing file only ever appends to its sessions. Checked on every
 * committed fixture of this package (never on /work/shared/fixtures/real, which may be absent):
 * exhaustively at every line boundary and in the middle of every line, and at random byte cuts
 * (fast-check; the seed is printed and replays from STRAND_TEST_SEED).
 */

const SEED =
  process.env['STRAND_TEST_SEED'] === undefined
    ? randomInt(2 ** 31)
    : Number(process.env['STRAND_TEST_SEED']);

interface Mapped {
  readonly unit: SourceUnit;
  readonly plans: readonly SessionPlan[];
}

/** Discovers and maps every file of a folder, each child pointed at its parent's file (as a run does). */
async function mapFolder(importer: HarnessImporter, root: string): Promise<Mapped[]> {
  const out: Mapped[] = [];
  for (const { linked } of await peekedUnits(importer, root))
    out.push({ unit: linked, plans: await plansOf(importer, linked) });
  return out;
}

async function plansOf(importer: HarnessImporter, unit: SourceUnit): Promise<readonly SessionPlan[]> {
  const peek = await importer.peek(unit);
  if (peek.kind !== 'session') return [];
  const mapped = await importer.map(unit, peek);
  return mapped.kind === 'sessions' ? mapped.plans : [];
}

/** Every session of `prefix` is one of `whole`, with the same header and a prefix of its events. */
function expectPrefix(prefix: readonly SessionPlan[], whole: readonly SessionPlan[], where: string): void {
  const byId = new Map(whole.map((plan) => [plan.header.id as string, plan]));
  for (const plan of prefix) {
    const full = byId.get(plan.header.id);
    expect(full, `${where}: session ${plan.header.id} is not in the whole file's mapping`).toBeDefined();
    expect(plan.header, `${where}: header of ${plan.header.id}`).toEqual(full!.header);
    expect(plan.fork?.parentId, `${where}: fork parent of ${plan.header.id}`).toBe(full!.fork?.parentId);
    expect(
      plan.events.length,
      `${where}: ${plan.header.id} has more events than the whole`,
    ).toBeLessThanOrEqual(full!.events.length);
    expect(plan.events, `${where}: events of ${plan.header.id}`).toEqual(
      full!.events.slice(0, plan.events.length),
    );
    for (const ref of plan.attachments.keys())
      expect(full!.attachments.has(ref), `${where}: attachment ${ref}`).toBe(true);
  }
}

/** Line-boundary cuts and a cut in the middle of every line, as byte offsets. */
function lineCuts(bytes: Buffer): number[] {
  const cuts = new Set<number>([0, bytes.length]);
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a) continue;
    cuts.add(start + Math.floor((i - start) / 2));
    cuts.add(i + 1);
    start = i + 1;
  }
  if (start < bytes.length) cuts.add(start + Math.floor((bytes.length - start) / 2));
  return [...cuts].sort((a, b) => a - b);
}

let ws: Workspace;
beforeAll(() => {
  ws = workspace('strand-prefix-law-');
  console.log(`prefix law: random byte cuts use seed ${SEED} (replay with STRAND_TEST_SEED=${SEED})`);
});
afterAll(() => ws.dispose());

describe('prefix law: importing any prefix of a file yields a prefix of importing the whole file', () => {
  for (const [index, set] of COMMITTED_FIXTURE_SETS.entries()) {
    it(`${set.dir}: every line cut and every mid-line cut of every file`, async () => {
      const root = path.join(ws.root, `set-${index}`);
      copyInto(path.join(PACKAGE_SRC, set.dir), root);
      const importer = importerFor(set.harness);
      const whole = await mapFolder(importer, root);
      expect(whole.some((m) => m.plans.length > 0)).toBe(true);
      for (const { unit, plans } of whole) {
        const bytes = readFileSync(unit.file);
        try {
          for (const cut of lineCuts(bytes)) {
            writeFileSync(unit.file, bytes.subarray(0, cut));
            expectPrefix(
              await plansOf(importer, unit),
              plans,
              `${path.relative(root, unit.file)} cut at byte ${cut}`,
            );
          }
        } finally {
          writeFileSync(unit.file, bytes);
        }
      }
    });
  }

  it('a growing Codex rollout (synthetic, 12 turns): random byte cuts (fast-check, seeded)', async () => {
    const root = path.join(ws.root, 'synthetic');
    mkdirSync(root, { recursive: true });
    const file = path.join(root, 'rollout-2026-01-01T00-00-00-01c00000-0000-7000-8000-000000000001.jsonl');
    const text = Buffer.from(codexRollout({ id: '01c00000-0000-7000-8000-000000000001', turns: 12 }));
    writeFileSync(file, text);
    const importer = importerFor('codex');
    const [whole] = await mapFolder(importer, root);
    expect(whole!.plans).toHaveLength(1);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: text.length }), async (cut) => {
        writeFileSync(file, text.subarray(0, cut));
        expectPrefix(
          await plansOf(importer, whole!.unit),
          whole!.plans,
          `synthetic rollout cut at byte ${cut}`,
        );
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});
