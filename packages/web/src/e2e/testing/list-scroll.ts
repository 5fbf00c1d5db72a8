import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { UI_TIMEOUT } from './browser.js';

/**
 * Scrolls the session list to its end until the row `lastId` is read: the list reads a page as
 * its end comes near, so each step waits for the rows the scroll asked for (the poll is a hang
 * guard, not a clock). Returns the list.
 */
export async function scrollListToEnd(page: Page, lastId: string): Promise<Locator> {
  const list = page.getByTestId('session-list');
  const rowCount = async (): Promise<number> => Number(await list.getAttribute('data-row-count'));
  const last = page.locator(`[data-testid="session-row"][data-session-id="${lastId}"]`);
  while ((await last.count()) === 0) {
    const before = await rowCount();
    await list.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect
      .poll(async () => (await rowCount()) > before || (await last.count()) > 0, { timeout: UI_TIMEOUT })
      .toBe(true);
  }
  return list;
}
