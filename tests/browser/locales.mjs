// Drives Debian's Chromium through the verification page in several languages at 320 px wide
// (the narrowest phone layout) and prints a JSON report on its last line. Called by
// tests/tests/it/web_ui_languages.rs.
//
//   node locales.mjs scenario.json
//   scenario: { url, langs: [..], shots: "<dir>" | null, shot_langs: [..] (the ones photographed) }
//
// For each language and for the welcome and camera screens it reports what overflows the
// width, axe's findings, and the page's writing direction with where the steps list puts its
// indent (start side) and where the heading sits, so that a mirrored layout can be checked.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const scenario = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const report = { languages: {} };

function measure() {
  const width = document.documentElement.clientWidth;
  const overflowing = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('[hidden]') || el.closest('.visually-hidden')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const name = el.id || `${el.tagName.toLowerCase()}.${el.className}`;
    if (box.right > width + 0.5 || box.left < -0.5) overflowing.push(`${name}: ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
    if (el.scrollWidth > el.clientWidth + 1 && !['svg', 'video'].includes(el.tagName.toLowerCase())) {
      overflowing.push(`${name}: content ${el.scrollWidth} in ${el.clientWidth}`);
    }
  }
  const steps = document.querySelector('.steps');
  const heading = document.querySelector('.screen:not([hidden]) h1');
  const main = document.querySelector('main').getBoundingClientRect();
  const range = document.createRange();
  if (heading) range.selectNodeContents(heading);
  const text = heading ? range.getBoundingClientRect() : null;
  return {
    page_width: document.documentElement.scrollWidth,
    width,
    overflowing,
    dir: getComputedStyle(document.documentElement).direction,
    steps_padding_left: steps ? parseFloat(getComputedStyle(steps).paddingLeft) : null,
    steps_padding_right: steps ? parseFloat(getComputedStyle(steps).paddingRight) : null,
    heading_gap_left: text ? Math.round(text.left - main.left) : null,
    heading_gap_right: text ? Math.round(main.right - text.right) : null,
    heading: heading ? heading.textContent : null,
  };
}

const browser = await chromium.launch({
  executablePath: process.env.FACEGATE_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
try {
  const context = await browser.newContext({
    viewport: { width: 320, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  for (const lang of scenario.langs) {
    const page = await context.newPage();
    const entry = { console_errors: [], screens: {} };
    page.on('console', (m) => { if (m.type() === 'error') entry.console_errors.push(m.text()); });
    page.on('pageerror', (e) => entry.console_errors.push(`pageerror: ${e.message}`));
    await page.goto(`${scenario.url}&lang=${encodeURIComponent(lang)}`);
    for (const [screen, next] of [['welcome', '#welcome-start'], ['camera', null]]) {
      await page.waitForSelector(`#screen-${screen}:not([hidden])`, { timeout: 15000 });
      await page.waitForFunction(() => !document.fonts || document.fonts.status === 'loaded');
      const measured = await page.evaluate(measure);
      await page.evaluate(axeSource);
      measured.axe = await page.evaluate(() =>
        globalThis.axe.run(document, { resultTypes: ['violations'] }).then((r) =>
          r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })),
        ),
      );
      if (scenario.shots && (scenario.shot_langs || []).includes(lang)) {
        await page.screenshot({ path: `${scenario.shots}/lang-${lang}-${screen}-320.png`, fullPage: true });
      }
      entry.screens[screen] = measured;
      if (next) await page.click(next);
    }
    report.languages[lang] = entry;
    await page.close();
  }
} catch (error) {
  report.error = String(error && error.stack ? error.stack : error);
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
