import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import { renderClaudeTranscript } from '@strand/export';
import { Session, SessionId, SessionSeq, newSessionHeader } from '@strand/session';
import { strand, strandAsync } from './testing/strand-process.js';

/** `strand export` in a real process of the bundled CLI over a real folder. */
let root: string;
let data: string;
const AT = Date.parse('2026-11-02T12:00:00Z');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]);

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-export-'));
  data = path.join(root, 'data');
  const persistence = await openJsonlPersistence({ root: data });
  const header = newSessionHeader({ id: SessionId('alpha'), createdAt: AT, cwd: '/work/shop' });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
  await session.append(
    [
      { type: 'turn/start', data: {} },
      { type: 'user/message', data: { content: 'What is in the folder?', author: 'human' } },
      { type: 'tool/call', data: { callId: 'c1', name: 'Bash', arguments: '{"command":"ls"}' } },
      { type: 'tool/result', data: { callId: 'c1', content: 'README.md\nsrc' } },
      { type: 'assistant/message', data: { content: 'A README and `src`.' } },
      { type: 'session/title', data: { title: 'The shop folder' } },
      { type: 'turn/end', data: { reason: 'completed' } },
    ].map((event) => ({ ...event, time: AT })),
  );
  // A session whose prompt holds a stored image and one whose bytes are not stored.
  const pictured = newSessionHeader({ id: SessionId('pictured'), createdAt: AT, cwd: '/work/shop' });
  const made = await persistence.create({ header: pictured });
  const ref = await persistence.putAttachment(pictured.id, { bytes: PNG, mediaType: 'image/png' });
  await new Session({
    header: pictured,
    incarnation: made.incarnation,
    writer: persistenceWriter(persistence, pictured.id),
  }).append(
    [
      { type: 'turn/start', data: {} },
      {
        type: 'user/message',
        data: {
          content: [
            { type: 'image', ref },
            { type: 'image', ref: 'not-stored' },
          ],
          author: 'human',
        },
      },
      { type: 'assistant/message', data: { content: 'A dot.' } },
      { type: 'turn/end', data: { reason: 'completed' } },
    ].map((event) => ({ ...event, time: AT })),
  );
  await persistence.close();
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('strand export', () => {
  it('prints Markdown on stdout: the title, the prompt, the call and its result', () => {
    const run = strand('export', 'alpha', '--format', 'markdown', '--data', data);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('# The shop folder\n')).toBe(true);
    expect(run.stdout).toContain('What is in the folder?');
    expect(run.stdout).toContain('**Tool call** · `Bash`');
    expect(run.stdout).toContain('<details>\n<summary>Result</summary>\n\n```text\nREADME.md\nsrc\n```');
  });

  it('writes JSON to --out whole, and leaves nothing else in the folder', () => {
    const out = path.join(root, 'alpha.json');
    const run = strand('export', 'alpha', '--format', 'json', '--out', out, '--data', data);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^strand: wrote .*alpha\.json \(\d+ bytes\)\n$/);
    const written = JSON.parse(readFileSync(out, 'utf8')) as { header: { id: string }; events: unknown[] };
    expect(written.header.id).toBe('alpha');
    expect(written.events).toHaveLength(7);
    expect(readdirSync(root).filter((name) => name.includes('strand-tmp'))).toEqual([]);
  });

  it('refuses an unknown format with the choices (exit 2), an unknown session and an unwritable file (exit 1)', () => {
    const format = strand('export', 'alpha', '--format', 'pdf', '--data', data);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('markdown, html, json');
    const missing = strand('export', 'nobody', '--format', 'json', '--data', data);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const folder = path.join(root, 'no-such-folder');
    const unwritable = strand(
      'export',
      'alpha',
      '--format',
      'json',
      '--out',
      path.join(folder, 'a.json'),
      '--data',
      data,
    );
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toMatch(/^strand: could not write .*a\.json: /);
    expect(existsSync(folder)).toBe(false);
  });

  it('--to claude-code files a transcript where Claude Code resumes it, prints the command, and writes the same bytes again', () => {
    const home = path.join(root, 'home-claude');
    const run = strand('export', 'alpha', '--to', 'claude-code', '--home', home, '--json', '--data', data);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      path: string;
      resumeId: string;
      command: string;
      children: unknown[];
    };
    expect(out.path).toBe(path.join(home, '.claude', 'projects', '-work-shop', `${out.resumeId}.jsonl`));
    expect(out.command).toBe(`cd /work/shop && claude --resume ${out.resumeId}`);
    expect(out.children).toEqual([]);
    const first = readFileSync(out.path, 'utf8');
    expect(first).toContain('"tool_use"');
    expect(readdirSync(path.dirname(out.path))).toEqual([`${out.resumeId}.jsonl`]);
    const again = strand('export', 'alpha', '--to', 'claude-code', '--home', home, '--data', data);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${out.command}\n`);
    expect(readFileSync(out.path, 'utf8')).toBe(first);
  });

  it('--to claude-code follows CLAUDE_CONFIG_DIR, and replaces its own earlier export, and never overwrites a file Claude Code has continued', async () => {
    const config = path.join(root, 'claude-config');
    const run = await strandAsync(['export', 'alpha', '--to', 'claude-code', '--json', '--data', data], {
      CLAUDE_CONFIG_DIR: config,
    });
    expect(run.code).toBe(0);
    const { path: file } = JSON.parse(run.stdout) as { path: string };
    expect(file.startsWith(path.join(config, 'projects') + path.sep)).toBe(true);
    // An earlier export (a shorter cut), untouched since: replaced whole by the session as it is now.
    const exported = readFileSync(file, 'utf8');
    const earlier = renderClaudeTranscript({
      header: newSessionHeader({ id: SessionId('alpha'), createdAt: AT, cwd: '/work/shop' }),
      events: [
        { seq: SessionSeq(0), type: 'turn/start', time: AT, data: {} },
        { seq: SessionSeq(1), type: 'user/message', time: AT, data: { content: 'What?', author: 'human' } },
      ],
    }).text;
    writeFileSync(file, earlier);
    const grown = await strandAsync(['export', 'alpha', '--to', 'claude-code', '--data', data], {
      CLAUDE_CONFIG_DIR: config,
    });
    expect(grown.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(exported);
    const continued = `${readFileSync(file, 'utf8')}{"type":"user","message":{"role":"user","content":"more"}}\n`;
    writeFileSync(file, continued);
    const refused = await strandAsync(['export', 'alpha', '--to', 'claude-code', '--data', data], {
      CLAUDE_CONFIG_DIR: config,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('not overwritten');
    expect(readFileSync(file, 'utf8')).toBe(continued);
  });

  it("--to claude-code writes a prompt's stored image as an image block with its bytes, and names one not stored", () => {
    const home = path.join(root, 'home-pictured');
    const run = strand('export', 'pictured', '--to', 'claude-code', '--home', home, '--json', '--data', data);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('strand: 1 × image not carried\n');
    const { path: file } = JSON.parse(run.stdout) as { path: string };
    const prompt = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { message: unknown };
    expect(prompt.message).toEqual({
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } },
        { type: 'text', text: '[image not-stored]' },
      ],
    });
  });

  it('--to codex files a rollout under CODEX_HOME by its start day, and refuses one Codex has continued', async () => {
    const codexHome = path.join(root, 'codex-home');
    const run = await strandAsync(['export', 'alpha', '--to', 'codex', '--json', '--data', data], {
      CODEX_HOME: codexHome,
    });
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { path: string; resumeId: string; command: string };
    expect(out.path).toBe(
      path.join(
        codexHome,
        'sessions',
        '2026',
        '11',
        '02',
        `rollout-2026-11-02T12-00-00-${out.resumeId}.jsonl`,
      ),
    );
    expect(out.command).toBe(`cd /work/shop && codex resume ${out.resumeId}`);
    const continued = `${readFileSync(out.path, 'utf8')}{"type":"event_msg","payload":{"type":"task_started"}}\n`;
    writeFileSync(out.path, continued);
    const refused = await strandAsync(['export', 'alpha', '--to', 'codex', '--data', data], {
      CODEX_HOME: codexHome,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Codex may have continued it');
    expect(readFileSync(out.path, 'utf8')).toBe(continued);
  });

  it('--to gemini files a chat under GEMINI_CLI_HOME in the folder Gemini CLI names the project by, and registers it as Gemini CLI does', async () => {
    const cliHome = path.join(root, 'gemini-cli-home');
    const dir = path.join(cliHome, '.gemini');
    // Another project already holds the slug `shop`: this one gets `shop-1`, as Gemini CLI gives it.
    mkdirSync(path.join(dir, 'tmp', 'shop'), { recursive: true });
    writeFileSync(path.join(dir, 'tmp', 'shop', '.project_root'), '/elsewhere/shop');
    writeFileSync(
      path.join(dir, 'projects.json'),
      JSON.stringify({ projects: { '/elsewhere/shop': 'shop' } }),
    );
    const env = { GEMINI_CLI_HOME: cliHome };
    const run = await strandAsync(['export', 'alpha', '--to', 'gemini', '--json', '--data', data], env);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { path: string; resumeId: string; command: string };
    expect(out.path).toBe(
      path.join(dir, 'tmp', 'shop-1', 'chats', `session-2026-11-02T12-00-${out.resumeId.slice(0, 8)}.jsonl`),
    );
    expect(out.command).toBe(`cd /work/shop && gemini --resume ${out.resumeId}`);
    expect(JSON.parse(readFileSync(path.join(dir, 'projects.json'), 'utf8'))).toEqual({
      projects: { '/elsewhere/shop': 'shop', '/work/shop': 'shop-1' },
    });
    expect(readFileSync(path.join(dir, 'tmp', 'shop-1', '.project_root'), 'utf8')).toBe('/work/shop');
    expect(readFileSync(path.join(dir, 'history', 'shop-1', '.project_root'), 'utf8')).toBe('/work/shop');
    const first = readFileSync(out.path, 'utf8');
    const again = await strandAsync(['export', 'alpha', '--to', 'gemini', '--data', data], env);
    expect(again.code).toBe(0);
    expect(readFileSync(out.path, 'utf8')).toBe(first);
    expect(existsSync(path.join(dir, 'projects.json.lock'))).toBe(false);
  });

  it('--json with --format, or neither --format nor --to, is a usage error (exit 2)', () => {
    const json = strand('export', 'alpha', '--format', 'json', '--json', '--data', data);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('--json goes with --to');
    const neither = strand('export', 'alpha', '--data', data);
    expect(neither.code).toBe(2);
    const harness = strand('export', 'alpha', '--to', 'vim', '--data', data);
    expect(harness.code).toBe(2);
    expect(harness.stderr).toContain('claude-code');
  });
});
