import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderExport } from '@strand/export';
import { messageText, newSessionHeader, readCoreEvent, SessionId } from '@strand/session';
import { workloadEvents, workloadSession } from '@strand/workload';
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

describe('Export on the session view', () => {
  let browser: BrowserHost | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('downloads the session as HTML and as Markdown, named by the host', async () => {
    browser = await startBrowserHost({
      prefix: 'strand-export-menu-',
      corpus: async ({ write }) => {
        const header = newSessionHeader({ id: SessionId('menu-export'), createdAt: 0, cwd: '/work/shop' });
        await write(header, [
          [{ type: 'session/title', data: { title: 'Ship the export menu' } }, ...workloadSession(3, 40)],
        ]);
      },
    });
    const { page } = browser;
    await page.goto(browser.host.url);
    await openSession(page, 'menu-export');

    for (const [format, name] of [
      ['html', 'strand-menu-export.html'],
      ['markdown', 'strand-menu-export.md'],
    ] as const) {
      await page.getByTestId('export-menu').click();
      if (format === 'html') await browser.shot('export-menu');
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
});
