import { expect } from 'vitest';
import type { HarnessImporter } from '../run/harness-importer.js';

/** A mapped session as the prefix law compares it. */
export interface MappedSession {
  readonly header: unknown;
  readonly events: readonly unknown[];
}

/** Maps the database at `file` as a one-shot import does (peek, then map): its sessions by id. */
export async function mapDatabase(
  importer: Pick<HarnessImporter, 'peek' | 'map'>,
  file: string,
): Promise<Map<string, MappedSession>> {
  const unit = { file, companions: [] };
  const peek = await importer.peek(unit);
  if (peek.kind !== 'session') throw new Error(`not peeked as a database: ${JSON.stringify(peek)}`);
  const result = await importer.map(unit, peek);
  const out = new Map<string, MappedSession>();
  if (result.kind === 'sessions') for (const plan of result.plans) out.set(plan.header.id, plan);
  return out;
}

/**
 * The prefix law of a database's mapping: the database cut after any of its `rows` first messages
 * maps every session to a prefix of what the whole database maps it to — same header, the events
 * a leading run of the whole's — so live ingest only ever appends. `mapCut(k)` maps the database
 * holding the first `k` messages, `mapCut(undefined)` the whole.
 */
export async function expectEveryCutAPrefix(
  name: string,
  rows: number,
  mapCut: (messages: number | undefined) => Promise<Map<string, MappedSession>>,
): Promise<void> {
  const whole = await mapCut(undefined);
  for (let k = 0; k < rows; k++) {
    const cut = await mapCut(k);
    for (const [id, plan] of cut) {
      const full = whole.get(id);
      expect(full, `${name} cut at ${k}: session ${id}`).toBeDefined();
      expect(plan.header).toEqual(full!.header);
      expect(plan.events, `${name} cut at ${k}: ${id}`).toEqual(full!.events.slice(0, plan.events.length));
    }
  }
}
