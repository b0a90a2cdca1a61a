/**
 * Accessibility of a page in the browser tests: axe-core's WCAG 2.1 A and AA rules. axe is injected with
 * `page.evaluate` (the DevTools protocol, which a page's `script-src 'self'` does not block), and the check
 * fails with a readable list when any violation is serious or critical.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const failingImpacts = new Set(['serious', 'critical']);

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

/** Every WCAG 2.1 A/AA violation axe finds on the page as it is now. */
export async function accessibilityViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axe.source);
  const options = { runOnly: { type: 'tag', values: wcagTags }, resultTypes: ['violations'] };
  const results = (await page.evaluate(`axe.run(document, ${JSON.stringify(options)})`)) as { violations: Violation[] };
  return results.violations;
}

/** One line per violation, then one per element: what is wrong, where, and how to fix it. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => {
        const summary = (n.failureSummary ?? '').replace(/\s+/g, ' ').trim();
        return `    - ${n.target.join(' ')}: ${n.html.slice(0, 160)}${summary ? `\n      ${summary}` : ''}`;
      });
      return [`  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`, ...nodes].join('\n');
    })
    .join('\n');
}

/** Fails when the page has a serious or critical violation; answers the minor and moderate ones. */
export async function assertAccessible(page: Page, label = page.url()): Promise<Violation[]> {
  const violations = await accessibilityViolations(page);
  const failing = violations.filter((v) => failingImpacts.has(v.impact ?? ''));
  if (failing.length > 0) {
    throw new Error(
      `${label}: ${failing.length} serious or critical accessibility violation(s):\n${describeViolations(failing)}`,
    );
  }
  return violations;
}
