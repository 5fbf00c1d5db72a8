import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32, type Rng } from '@strand/workload';
import { words } from './corpus-text.js';

const tokens = (n: number): string =>
  n < 1000 ? `${n}` : n < 10_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`;

/** Status lines as aider/io.py writes them: `> ` and two spaces. */
const status = (text: string): string => `> ${text}  \n`;

/** One exchange: a prompt (sometimes several lines), a reply with SEARCH/REPLACE blocks, the status after it. */
function exchange(rng: Rng, turn: number): string {
  const promptLines = 1 + Math.floor(rng() * rng() * 4);
  let out =
    '\n' +
    Array.from({ length: promptLines }, () => `#### ${words(rng, 6 + Math.floor(rng() * 20))}  \n`).join('');
  out += `\n${words(rng, 20 + Math.floor(rng() * 60))}\n\n`;
  const edits = Math.floor(rng() * 3);
  for (let e = 0; e < edits; e++) {
    const file = `src/${words(rng, 1)}_${turn}_${e}.py`;
    const body = (n: number): string =>
      Array.from(
        { length: n },
        (_, i) => `    ${words(rng, 1)}_${i} = "${words(rng, 6)}"  # ${words(rng, 3)}`,
      ).join('\n');
    out += `${file}\n\`\`\`python\n<<<<<<< SEARCH\n${body(2 + Math.floor(rng() * 10))}\n=======\n${body(3 + Math.floor(rng() * 20))}\n>>>>>>> REPLACE\n\`\`\`\n\n`;
  }
  const sent = 2_000 + Math.floor(rng() * 40_000);
  const hit = rng() < 0.5 ? Math.floor(sent * 0.8) : 0;
  out += status(
    `Tokens: ${tokens(sent)} sent${hit > 0 ? `, ${tokens(hit)} cache hit` : ''}, ${tokens(50 + Math.floor(rng() * 3000))} received. Cost: $0.0${Math.floor(rng() * 9)} message, $0.${Math.floor(rng() * 9)}0 session.`,
  );
  for (let e = 0; e < edits; e++) out += status(`Applied edit to src/${words(rng, 1)}_${turn}_${e}.py`);
  if (edits > 0) out += status(`Commit ${Math.floor(rng() * 0xfffffff).toString(16)} feat: ${words(rng, 5)}`);
  return out;
}

/**
 * A tree of projects, each with its `.aider.chat.history.md` (several sessions, each a run of
 * exchanges), deterministic (seeded); returns its size in bytes and the number of history files.
 */
export function generateAiderCorpus(root: string, bytesTarget: number): { bytes: number; files: number } {
  const rng = mulberry32(20_260_502);
  let bytes = 0;
  let files = 0;
  while (bytes < bytesTarget) {
    const dir = path.join(root, `project-${files}`);
    mkdirSync(dir, { recursive: true });
    let text = '';
    const sessions = 1 + Math.floor(rng() * 12);
    let time = Date.UTC(2025, 0, 1) + Math.floor(rng() * 3e10);
    for (let s = 0; s < sessions; s++) {
      time += Math.floor(rng() * 1e8);
      const at = new Date(time).toISOString().slice(0, 19).replace('T', ' ');
      text += `\n# aider chat started at ${at}\n\n`;
      text += status('Aider v0.86.1');
      text += status('Main model: anthropic/claude-sonnet-4-20250514 with diff edit format, infinite output');
      text += status(`Git repo: .git with ${10 + Math.floor(rng() * 500)} files`);
      const turns = 1 + Math.floor(rng() * rng() * 40);
      for (let t = 0; t < turns; t++) text += exchange(rng, t);
    }
    writeFileSync(path.join(dir, '.aider.chat.history.md'), text);
    bytes += Buffer.byteLength(text);
    files++;
  }
  return { bytes, files };
}
