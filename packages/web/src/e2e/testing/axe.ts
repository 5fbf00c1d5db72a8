import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe's WCAG 2.1 A/AA rules on `selector` (the whole page by default), as the page is now: the
 * violations, each with the nodes it names and why. Best-practice rules are left out: they judge
 * the page's overall outline, which one dialog or one view cannot.
 */
export async function wcagViolations(
  page: Page,
  selector?: string,
): Promise<{ id: string; targets: string[] }[]> {
  const axe = createRequire(import.meta.url)('axe-core') as { source: string };
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe.source });
  return page.evaluate(async (scope) => {
    const run = (
      window as unknown as { axe: { run: (context: unknown, options: object) => Promise<unknown> } }
    ).axe.run;
    const result = (await run(scope ?? document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })) as { violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] };
    return result.violations.map((violation) => ({
      id: violation.id,
      targets: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }));
  }, selector);
}
