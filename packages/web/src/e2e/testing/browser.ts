/**
 * The pieces every browser test needs, in one place: where Chromium is, how the UI is built, how
 * Chromium is launched, and how a test waits for the connection badge.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'vite';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.STRAND_CHROMIUM ?? '/usr/bin/chromium';
/** Generous: the suites must pass on a loaded 2-core machine next to the other suites. */
export const UI_TIMEOUT = 30_000;
const WEB_DIR = path.resolve(import.meta.dirname, '../../..');
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../../../../artifacts/e2e');

/** Headless Chromium with nothing of its own on the network (no updates, sync, QUIC or GPU). */
const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails the suite with how to fix it when Debian's Chromium is missing. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set STRAND_CHROMIUM)`);
}

/**
 * Builds the web UI into `outDir` with vite. With `production`, what `npm run build:web` ships:
 * Vitest sets NODE_ENV=test, which vite keeps, so the bundle would otherwise be React's
 * development build (StrictMode's double effects, several times slower rendering).
 */
export async function buildWebUi(
  outDir: string,
  options: { readonly production?: boolean } = {},
): Promise<void> {
  const run = () =>
    build({
      root: WEB_DIR,
      configFile: path.join(WEB_DIR, 'vite.config.ts'),
      logLevel: 'warn',
      ...(options.production === true ? { mode: 'production' } : {}),
      build: { outDir, emptyOutDir: true },
    });
  if (options.production !== true) {
    await run();
    return;
  }
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await run();
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * The scripts a page of the built UI in `webRoot` loads before anything else: `index.html`'s module
 * script and the chunks it preloads (what it imports statically), each with its size in bytes.
 * Chunks imported on demand (`React.lazy`, `import()`) are not among them.
 */
export async function firstScreenScripts(
  webRoot: string,
): Promise<readonly { readonly file: string; readonly bytes: number }[]> {
  const html = await readFile(path.join(webRoot, 'index.html'), 'utf8');
  const urls = [
    ...html.matchAll(/<script type="module"[^>]*\ssrc="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"/g),
  ].map((match) => match[1]!);
  return Promise.all(
    urls.map(async (url) => ({ file: url, bytes: (await stat(path.join(webRoot, url))).size })),
  );
}

/** A headless Chromium with its profile in `profileDir`; `args` add to the common flags. */
export function launchChromium(
  profileDir: string,
  options: {
    readonly viewport?: { width: number; height: number };
    readonly args?: readonly string[];
    /** `false`: pages run no script (a file meant to be read without them). */
    readonly javaScriptEnabled?: boolean;
  } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    ...(options.viewport === undefined ? {} : { viewport: options.viewport }),
    ...(options.javaScriptEnabled === undefined ? {} : { javaScriptEnabled: options.javaScriptEnabled }),
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}

/** `launchChromium`, then its first page, with every wait on it bounded by `UI_TIMEOUT`. */
export async function openChromiumPage(
  profileDir: string,
  options: Parameters<typeof launchChromium>[1] = {},
): Promise<{ readonly context: BrowserContext; readonly page: Page }> {
  const context = await launchChromium(profileDir, options);
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(UI_TIMEOUT);
  return { context, page };
}

/** Waits until the page's connection badge shows `state` (`open`, `closed`, …). */
export async function waitConnectionState(page: Page, state: string): Promise<void> {
  await page
    .locator(`[data-testid="connection-state"][data-state="${state}"]`)
    .waitFor({ timeout: UI_TIMEOUT });
}
