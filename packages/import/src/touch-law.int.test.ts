import { readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importTranscripts } from './run/import-transcripts.js';
import { PACKAGE_SRC, copyInto, workspace, type Workspace } from './testing/fixture-dirs.js';
import { COMMITTED_FIXTURE_SETS } from './testing/fixture-sets.js';

/**
 * The ledger's touch law: **a source whose files are only touched (new mtimes, the same bytes) is
 * recognised by its digests and mapped again for none of its sessions.** It holds when the digest
 * a mapping records for a unit equals the one the run computes from disk (`unitHash`) — for the
 * unit's own file and for each companion. Checked on every committed fixture set, and on the
 * OpenHands conversation (one file per event: thousands of companions).
 */

let open: Workspace[] = [];
afterEach(() => {
  for (const w of open) w.dispose();
  open = [];
});

function touchTree(target: string, when: Date): void {
  if (statSync(target).isDirectory())
    for (const name of readdirSync(target)) touchTree(path.join(target, name), when);
  else utimesSync(target, when, when);
}

const SETS = [
  ...COMMITTED_FIXTURE_SETS,
  { harness: 'openhands' as const, dir: 'openhands/fixtures/synthetic' },
];

describe('the touch law: touched files are told by their digests, never mapped again', () => {
  it.each(SETS)('$harness $dir', async ({ harness, dir }) => {
    const w = workspace('strand-touch-');
    open.push(w);
    copyInto(path.join(PACKAGE_SRC, dir), w.source);
    const run = () => importTranscripts({ harness, sourceDir: w.source, dataDir: w.data });
    const first = await run();
    expect(first.imported + first.unchanged + first.failed + first.skipped).toBeGreaterThan(0);
    touchTree(w.source, new Date(Date.now() + 120_000));
    const again = await run();
    expect(again).toMatchObject({ imported: 0, updated: 0, replaced: 0 });
    // A session mapped again is listed (as `unchanged`); one told by its digests is not.
    expect(again.sessions).toEqual([]);
  });
});
