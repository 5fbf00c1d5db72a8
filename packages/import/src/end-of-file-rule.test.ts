import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_SRC } from './testing/fixture-dirs.js';

/**
 * The end-of-file rule is stated once and read in two places: the package README (for every
 * harness) and the Claude Code mapping's README. The two paragraphs must stay word for word the
 * same (the rule itself is pinned by `TranscriptBuilder`'s tests and the Claude Code import's).
 */
const RULE_START = '**At the end of a file nothing is written.**';
const RULE_END = '(`TranscriptBuilder.finish`, `endTurn`).';

function ruleIn(readme: string): string | undefined {
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(RULE_START);
  const end = text.indexOf(RULE_END, start);
  return start < 0 || end < 0 ? undefined : text.slice(start, end + RULE_END.length);
}

describe('the end-of-file rule in the READMEs', () => {
  it('is the same paragraph in the package README and the Claude Code README', () => {
    const pkg = ruleIn(path.join(PACKAGE_SRC, '..', 'README.md'));
    const claude = ruleIn(path.join(PACKAGE_SRC, 'claude-code', 'README.md'));
    expect(pkg).toBeDefined();
    expect(claude).toBe(pkg);
  });
});
