import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderExport } from '@strand/export';
import { messageText, newSessionHeader, readCoreEvent, SessionId } from '@strand/session';
import { workloadEvents, workloadSession } from '@strand/workload';
import { wcagViolations } from './testing/axe.js';
import { openChromiumPage, requireChromium } from './testing/browser.js';
import { openSession, startBrowserHost, type BrowserHost } from './testing/harness.js';

/**
 * The HTML export as a reader opens it: the standard workload's session rendered to one file,
 * opened from disk in Chromium **with JavaScript disabled**; every turn and every prompt shows,
 * and the page asks the network for nothing.
 */
let root: string;
let context: BrowserContext | undefined;
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

beforeAll(() => {
  requireChromium();
  root = mkdtempSync(path.join(tmpdir(), 'strand-export-html-'));
});
afterAll(async () => {
  await context?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the HTML export in a browser with scripts disabled', () => {
  it('shows every turn and prompt, embeds its image, and requests nothing but the file', async () => {
    const events = workloadEvents([
      ...workloadSession(7, 120),
      { type: 'turn/start', data: {} },
      {
        type: 'user/message',
        data: {
          content: [
            { type: 'text', text: 'And this picture?' },
            { type: 'image', ref: 'pic' },
          ],
          author: 'human',
        },
      },
      { type: 'turn/end', data: { reason: 'completed' } },
    ]);
    const header = newSessionHeader({ id: SessionId('export-html-e2e'), createdAt: 0, cwd: '/work/shop' });
    const { text } = await renderExport('html', { header, events, title: 'Workload session' }, (ref) =>
      Promise.resolve(ref === 'pic' ? { mediaType: 'image/png', base64: PNG } : undefined),
    );
    const file = path.join(root, 'session.html');
    writeFileSync(file, text);

    const opened = await openChromiumPage(path.join(root, 'profile'), { javaScriptEnabled: false });
    context = opened.context;
    const requests: string[] = [];
    opened.page.on('request', (request) => requests.push(request.url()));
    await opened.page.goto(pathToFileURL(file).href);

    const turns = events.filter((event) => event.type === 'turn/start').length;
    await expect(opened.page.locator('h2.turn').count()).resolves.toBe(turns);
    const prompts = events.flatMap((event) => {
      const core = readCoreEvent(event);
      return core?.type === 'user/message' ? [messageText(core.data.content, 'left out')] : [];
    });
    const shown = await opened.page.locator('section.msg-user').allInnerTexts();
    expect(shown).toHaveLength(prompts.length);
    prompts.forEach((prompt, index) => expect(shown[index]).toContain(prompt.split('\n')[0]!.trim()));
    const image = opened.page.locator('section.msg-user img');
    await expect(image.evaluate((img: HTMLImageElement) => img.naturalWidth)).resolves.toBe(1);
    expect(requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
  });
});

describe('Export and Continue in… on the session view', () => {
  let browser: BrowserHost | undefined;
  /** The host's home (`session.exportTo` writes there): the runtime's harness environment. */
  let hostHome: string;
  beforeAll(async () => {
    hostHome = mkdtempSync(path.join(tmpdir(), 'strand-continue-home-'));
    browser = await startBrowserHost({
      prefix: 'strand-export-menu-',
      runtime: { harnessEnv: { HOME: hostHome } },
      corpus: async ({ write }) => {
        const header = newSessionHeader({ id: SessionId('menu-export'), createdAt: 0, cwd: '/work/shop' });
        await write(header, [
          [{ type: 'session/title', data: { title: 'Ship the export menu' } }, ...workloadSession(3, 40)],
        ]);
      },
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(hostHome, { recursive: true, force: true });
  });

  it('downloads the session as HTML and as Markdown, named by the host', async () => {
    const { page } = browser!;
    await page.goto(browser!.host.url);
    await openSession(page, 'menu-export');

    for (const [format, name] of [
      ['html', 'strand-menu-export.html'],
      ['markdown', 'strand-menu-export.md'],
    ] as const) {
      await page.getByTestId('export-menu').click();
      if (format === 'html') await browser!.shot('export-menu');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId(`export-${format}`).click(),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      const saved = path.join(root, name);
      await download.saveAs(saved);
      const text = readFileSync(saved, 'utf8');
      expect(text).toContain('Ship the export menu');
      expect(text.startsWith(format === 'html' ? '<!doctype html>' : '# Ship the export menu')).toBe(true);
    }
  });

  it("continues the session in Claude Code: the dialog shows the resume command, and the file is in the host's home", async () => {
    const { page } = browser!;
    await page.goto(browser!.host.url);
    await openSession(page, 'menu-export');
    await page.getByTestId('continue-menu').click();
    await page.getByTestId('continue-claude-code').click();
    const dialog = page.getByRole('dialog', { name: 'Continue in Claude Code' });
    const command = await dialog.getByTestId('continue-command').textContent();
    expect(command).toMatch(/^cd \/work\/shop && claude --resume [0-9a-f-]{36}$/);
    const shown = (await dialog.getByTestId('continue-path').textContent())!;
    expect(shown).toBe(
      path.join(hostHome, '.claude', 'projects', '-work-shop', `${command!.split(' ').at(-1)!}.jsonl`),
    );
    expect(readFileSync(shown, 'utf8')).toContain('"origin":"menu-export"');
    await dialog.getByTestId('continue-left-out').waitFor();
    await dialog.getByTestId('continue-copy').click();
    await expect.poll(() => dialog.getByTestId('continue-copy').textContent()).toBe('Copied');
    await browser!.shot('continue-dialog');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await wcagViolations(page, '[role="dialog"]'), scheme).toEqual([]);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // A file the harness has continued is refused: the host's message, in the dialog.
    appendFileSync(shown, `${JSON.stringify({ type: 'user', message: 'continued there' })}\n`);
    await page.getByTestId('continue-menu').click();
    await page.getByTestId('continue-claude-code').click();
    await dialog
      .getByTestId('continue-error')
      .filter({ hasText: 'HOST_EXPORT_TARGET_NOT_OURS' })
      .filter({ hasText: 'not overwritten' })
      .waitFor();
  });
});
