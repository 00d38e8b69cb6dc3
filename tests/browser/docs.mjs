// Drives Debian's Chromium through the front door (/) and the API reference (/api/docs) and
// prints a JSON report on its last line. Called by tests/tests/it/front_door.rs.
//
//   node docs.mjs scenario.json      scenario: { base_url }
//
// The report lists every request the pages made (to prove nothing came from elsewhere), the
// console errors (CSP violations among them), axe's findings, and the operations the
// reference rendered as `METHOD path`.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const scenario = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const report = { requests: [], console_errors: [], axe: [], operations: [], front_links: [] };

const browser = await chromium.launch({
  executablePath: process.env.FACEGATE_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('request', (request) => report.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') report.console_errors.push(message.text());
  });
  page.on('pageerror', (error) => report.console_errors.push(`pageerror: ${error.message}`));

  const audit = async (label) => {
    await page.evaluate(axeSource);
    const result = await page.evaluate(() =>
      globalThis.axe.run(document, { resultTypes: ['violations'] }).then((r) =>
        r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })),
      ),
    );
    report.axe.push({ screen: label, violations: result });
  };

  const front = await page.goto(`${scenario.base_url}/`);
  report.front_status = front.status();
  report.front_title = await page.title();
  report.front_links = await page.$$eval('a:visible', (links) => links.map((a) => a.getAttribute('href')));
  await audit('front');

  const docs = await page.goto(`${scenario.base_url}/api/docs`);
  report.docs_status = docs.status();
  report.docs_csp = docs.headers()['content-security-policy'] || null;
  await page.waitForSelector('.opblock', { timeout: 30000 });
  report.operations = await page.$$eval('.opblock-summary', (blocks) =>
    blocks.map((b) => {
      const method = b.querySelector('.opblock-summary-method')?.textContent.trim() ?? '';
      const path = b.querySelector('.opblock-summary-path')?.getAttribute('data-path')
        ?? b.querySelector('.opblock-summary-path')?.textContent.trim() ?? '';
      return `${method} ${path}`;
    }),
  );
  report.docs_title = await page.title();
} catch (error) {
  report.error = String(error && error.stack ? error.stack : error);
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
