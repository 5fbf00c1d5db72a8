import {
  ANY_REQUEST_ERRORS,
  CONNECT_ERRORS,
  ERROR_TABLE,
  METHOD_ERRORS,
  METHOD_NAMES,
  isWireErrorCode,
} from '@strand/protocol';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The host answers the methods, so it holds their documented errors to the declared ones.
const doc = readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'protocol.md'), 'utf8');

/** The rows of the table under `heading`, as label → the backticked codes of its second cell. */
function tableUnder(heading: string): Map<string, string[]> {
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start).toBeGreaterThan(0);
  const rows = new Map<string, string[]>();
  for (const line of doc.slice(start + heading.length + 2).split('\n')) {
    if (line.startsWith('#')) break;
    const cells = /^\| (.+?) \| (.+) \|$/.exec(line);
    if (cells === null || cells[1] === 'method' || cells[1]!.startsWith('---')) continue;
    rows.set(
      cells[1]!,
      [...cells[2]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map(([, code]) => code!),
    );
  }
  return rows;
}

const byMethod = tableUnder('### Errors by method');
const declared = new Map<string, readonly string[]>([
  ['every request', ANY_REQUEST_ERRORS],
  ['connecting (the upgrade)', CONNECT_ERRORS],
  ...METHOD_NAMES.map((method): [string, readonly string[]] => [`\`${method}\``, METHOD_ERRORS[method]]),
]);

const sorted = (codes: readonly string[]): string[] => [...new Set(codes)].sort();

describe("docs/protocol.md's errors by method", () => {
  it('has one row per method (plus every request and connecting), and no other', () => {
    expect([...byMethod.keys()].sort()).toEqual([...declared.keys()].sort());
  });

  it('lists for each method exactly the codes METHOD_ERRORS declares', () => {
    const drift = [...declared]
      .map(([label, codes]) => ({
        label,
        declared: sorted(codes),
        documented: sorted(byMethod.get(label) ?? []),
      }))
      .filter(({ declared: d, documented }) => JSON.stringify(d) !== JSON.stringify(documented));
    expect(drift).toEqual([]);
  });

  it('gives every code a method may answer a row of the error table, with its integer', () => {
    const errorRows = new Map(
      [...doc.matchAll(/^\| ([A-Z][A-Z0-9_]+) \| (-\d+) \|/gm)].map(([, code, rpc]) => [code!, Number(rpc)]),
    );
    const answerable = sorted([...declared.values()].flat());
    expect(answerable.filter((code) => !isWireErrorCode(code))).toEqual([]);
    const missing = answerable
      .filter((code) => isWireErrorCode(code) && errorRows.get(code) !== ERROR_TABLE[code].rpc)
      .map((code) => ({
        code,
        documented: errorRows.get(code),
        rpc: isWireErrorCode(code) ? ERROR_TABLE[code].rpc : undefined,
      }));
    expect(missing).toEqual([]);
  });
});
