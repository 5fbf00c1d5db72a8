import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harnessHome } from '@strand/import';
import { persistenceWriter } from '@strand/persistence';
import type { ResultOf } from '@strand/protocol';
import { newSessionHeader, Session, SessionId } from '@strand/session';
import { RpcTestClient } from '../testing/host-fixture.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

/**
 * `session.exportTo` over the real wire: the host writes the harness transcript into its *own*
 * home (here a temp folder given as the runtime's `harnessEnv`), where `harnessHome` (the rule
 * `strand import` reads by) says; the same cut is the same bytes; a file the harness continued
 * is refused and left alone; a share token is refused before anything is written; a home the
 * host cannot write is one typed error and leaves nothing behind; an image the log references
 * goes in with the bytes the host's store holds.
 */
type Written = ResultOf<'session.exportTo'>;
const CWD = '/work/shop';
const TOKEN = 'export-to-token-0123456789abcdef';
let t: TestHost | undefined;
let home: string;
const undo: (() => void)[] = [];

afterEach(async () => {
  for (const step of undo.splice(0).reverse()) step();
  await t?.close();
  t = undefined;
  rmSync(home, { recursive: true, force: true });
});

async function hostWithSession(options: { cwd?: string; token?: boolean; prompt?: string } = {}): Promise<{
  client: RpcTestClient;
  id: string;
}> {
  home = mkdtempSync(path.join(tmpdir(), 'strand-export-to-home-'));
  t = await startTestHost({
    prefix: 'strand-export-to',
    runtime: { syncSearch: false, harnessEnv: { HOME: home } },
    ...(options.token === true ? { host: { token: TOKEN, requireToken: true } } : {}),
  });
  const client =
    options.token === true ? await RpcTestClient.open(`${t.host.rpcUrl}?token=${TOKEN}`) : await t.connect();
  if (options.token === true) undo.push(() => client.close());
  const { id } = await client.call<{ id: string }>('session.create', {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    prompt: options.prompt ?? 'list the shop files',
  });
  await t.runtime.agents.whenSettled();
  return { client, id };
}

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();

describe('session.exportTo', () => {
  it("writes a Claude Code transcript where harnessHome says, under the host's home, the same bytes twice", async () => {
    const { client, id } = await hostWithSession({ cwd: CWD });
    const written = await client.call<Written>('session.exportTo', { id, harness: 'claude-code' });
    const folder = harnessHome('claude-code', { env: { HOME: home } });
    expect(written.path).toBe(path.join(folder, 'projects', '-work-shop', `${written.resumeId}.jsonl`));
    expect(written.command).toBe(`cd ${CWD} && claude --resume ${written.resumeId}`);
    expect(written.running).toBe(false);
    const bytes = readFileSync(written.path, 'utf8');
    expect(bytes).toContain('list the shop files');
    expect(bytes.split('\n')[0]).toContain(`"origin":"${id}"`);

    const again = await client.call<Written>('session.exportTo', { id, harness: 'claude-code' });
    expect(again).toEqual(written);
    expect(readFileSync(written.path, 'utf8')).toBe(bytes);
    expect(filesUnder(home)).toEqual([path.relative(home, written.path)]);
  });

  it('refuses a file the harness has continued, leaving it as it is', async () => {
    const { client, id } = await hostWithSession({ cwd: CWD });
    const written = await client.call<Written>('session.exportTo', { id, harness: 'claude-code' });
    appendFileSync(written.path, `${JSON.stringify({ type: 'user', message: 'continued' })}\n`);
    const continued = readFileSync(written.path, 'utf8');
    await expect(client.call('session.exportTo', { id, harness: 'claude-code' })).rejects.toMatchObject({
      code: 'HOST_EXPORT_TARGET_NOT_OURS',
      message: expect.stringContaining('not overwritten'),
    });
    expect(readFileSync(written.path, 'utf8')).toBe(continued);
  });

  it('writes Codex and Gemini CLI transcripts under the same home, by their own variables', async () => {
    const { client, id } = await hostWithSession({ cwd: CWD });
    const codex = await client.call<Written>('session.exportTo', { id, harness: 'codex' });
    expect(codex.path.startsWith(path.join(home, '.codex', 'sessions') + path.sep)).toBe(true);
    expect(codex.command).toBe(`cd ${CWD} && codex resume ${codex.resumeId}`);
    const gemini = await client.call<Written>('session.exportTo', { id, harness: 'gemini' });
    expect(gemini.path).toMatch(new RegExp(`^${home}/\\.gemini/tmp/shop/chats/session-.*\\.jsonl$`));
    expect(JSON.parse(readFileSync(path.join(home, '.gemini', 'projects.json'), 'utf8'))).toEqual({
      projects: { [CWD]: 'shop' },
    });
  });

  it('is refused on a share token before anything is written', async () => {
    const { client, id } = await hostWithSession({ cwd: CWD, token: true });
    const { shareToken } = await client.call<{ shareToken: string }>('share.create', {
      id,
      createdBy: 'cli:tester',
    });
    const viewer = await RpcTestClient.open(`${t!.host.rpcUrl}?token=${shareToken}`);
    undo.push(() => viewer.close());
    await expect(viewer.call('session.exportTo', { id, harness: 'claude-code' })).rejects.toMatchObject({
      code: 'HOST_SHARE_READ_ONLY',
    });
    expect(filesUnder(home)).toEqual([]);
  });

  it('answers an unknown harness with the choices, and a session with no folder with its typed error', async () => {
    const { client, id } = await hostWithSession();
    const unknown = await client.request('session.exportTo', { id, harness: 'aider' });
    expect(unknown.error?.data.code).toBe('RPC_INVALID_PARAMS');
    for (const choice of ['claude-code', 'codex', 'gemini']) expect(unknown.error?.message).toContain(choice);
    await expect(client.call('session.exportTo', { id, harness: 'claude-code' })).rejects.toMatchObject({
      code: 'HOST_EXPORT_NOT_CONTINUABLE',
      message: expect.stringContaining('no working folder'),
    });
    await expect(
      client.call('session.exportTo', { id: 'no-such-session', harness: 'codex' }),
    ).rejects.toMatchObject({ code: 'SESSION_QUERY_NOT_FOUND' });
    expect(filesUnder(home)).toEqual([]);
  });

  it('answers a folder it cannot write with HOST_EXPORT_WRITE_FAILED, leaving no file and no temp file', async (context) => {
    const { client, id } = await hostWithSession({ cwd: CWD });
    const project = path.join(home, '.claude', 'projects', '-work-shop');
    mkdirSync(project, { recursive: true });
    // Read-only for this process: `chattr +i` binds root too (the tests run as root), chmod anyone else.
    const locked =
      process.getuid?.() === 0
        ? spawnSync('chattr', ['+i', project]).status === 0
        : spawnSync('chmod', ['555', project]).status === 0;
    if (!locked) context.skip('neither chattr +i (as root) nor chmod can make a folder read-only here');
    undo.push(() => {
      spawnSync('chattr', ['-i', project]);
      spawnSync('chmod', ['755', project]);
    });
    await expect(client.call('session.exportTo', { id, harness: 'claude-code' })).rejects.toMatchObject({
      code: 'HOST_EXPORT_WRITE_FAILED',
      message: expect.stringContaining('could not write'),
    });
    expect(readdirSync(project)).toEqual([]);
  });

  it('answers a home where the harness folder cannot be made with HOST_EXPORT_WRITE_FAILED, writing nothing', async () => {
    const { client, id } = await hostWithSession({ cwd: CWD });
    // A file where `.claude` goes: no folder can be made under it, whoever runs the host.
    writeFileSync(path.join(home, '.claude'), 'not a folder');
    await expect(client.call('session.exportTo', { id, harness: 'claude-code' })).rejects.toMatchObject({
      code: 'HOST_EXPORT_WRITE_FAILED',
      message: expect.stringContaining(`could not read ${path.join(home, '.claude')}`),
    });
    expect(filesUnder(home)).toEqual(['.claude']);
    expect(readFileSync(path.join(home, '.claude'), 'utf8')).toBe('not a folder');
  });

  it("writes a prompt's image with the bytes the host stores, in each harness's own image record", async () => {
    const { client } = await hostWithSession({ cwd: CWD });
    const { persistence } = t!.runtime.services;
    const header = newSessionHeader({ id: SessionId('with-image'), createdAt: 1_000, cwd: CWD });
    const { incarnation } = await persistence.create({ header });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const ref = await persistence.putAttachment(header.id, { bytes: png, mediaType: 'image/png' });
    const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
    await session.append([
      { type: 'turn/start', data: {} },
      {
        type: 'user/message',
        data: {
          content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image', ref },
            { type: 'image', ref: 'not-stored' },
          ],
          author: 'human',
        },
      },
      { type: 'assistant/message', data: { content: 'A dot.' } },
      { type: 'turn/end', data: { reason: 'completed' } },
    ]);
    const base64 = png.toString('base64');
    const written = await client.call<Written>('session.exportTo', {
      id: 'with-image',
      harness: 'claude-code',
    });
    const prompt = JSON.parse(readFileSync(written.path, 'utf8').split('\n')[0]!) as { message: unknown };
    expect(prompt.message).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64 } },
        { type: 'text', text: '[image not-stored]' },
      ],
    });
    expect(written.leftOut).toEqual(['1 × image not carried']);
    const codex = await client.call<Written>('session.exportTo', { id: 'with-image', harness: 'codex' });
    expect(readFileSync(codex.path, 'utf8')).toContain(
      JSON.stringify({ type: 'input_image', image_url: `data:image/png;base64,${base64}` }),
    );
    const gemini = await client.call<Written>('session.exportTo', { id: 'with-image', harness: 'gemini' });
    expect(readFileSync(gemini.path, 'utf8')).toContain(
      JSON.stringify({ inlineData: { mimeType: 'image/png', data: base64 } }),
    );
  });

  it('writes a child the session spawned as its Claude Code sidechain, linked from the spawn call; Codex names it', async () => {
    const { client, id } = await hostWithSession({
      cwd: CWD,
      prompt: 'spawn a one-shot agent "counter": count the shop files',
    });
    const { rows } = await client.call<ResultOf<'subagent.list'>>('subagent.list', { id });
    expect(rows).toHaveLength(1);
    const childId = rows[0]!.id;
    const written = await client.call<Written>('session.exportTo', { id, harness: 'claude-code' });
    expect(written.children).toHaveLength(1);
    const sidechain = written.children[0]!;
    expect(path.dirname(sidechain)).toBe(
      path.join(path.dirname(written.path), written.resumeId, 'subagents'),
    );
    const lines = readFileSync(sidechain, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      isSidechain: true,
      sessionId: written.resumeId,
      message: { role: 'user', content: 'count the shop files' },
    });
    const agentId = lines[0]!.agentId as string;
    expect(path.basename(sidechain)).toBe(`agent-${agentId}.jsonl`);
    const meta = JSON.parse(readFileSync(sidechain.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as {
      toolUseId: string;
      description: string;
    };
    expect(meta.description).toBe('counter');
    // The parent's spawn call is the one the meta names, and its result carries the agent.
    const parent = readFileSync(written.path, 'utf8');
    expect(parent).toContain(`"id":"${meta.toolUseId}","name":"spawn_agent"`);
    expect(parent).toContain(
      `"toolUseResult":{"status":"completed","prompt":"count the shop files","agentId":"${agentId}"`,
    );

    const codex = await client.call<Written>('session.exportTo', { id, harness: 'codex' });
    expect(codex.children).toEqual([]);
    expect(codex.leftOut).toContain(`1 × subagent not carried (Codex has no child format): ${childId}`);
  });
});
