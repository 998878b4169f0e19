// The pages as a person sees them, in Debian's chromium driven by puppeteer-core: the coverage explorer (map, grid,
// rule detail with a key, notify form, recent changes) and the API reference, against the service started as
// `npm start` starts it (embedded store, bundled corpus, verified rules only), plus an app that serves sample rules.
// No console error, no failed request, no serious or critical axe-core violation. Screenshots go to docs/.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { loadConfig } from '../../src/config.js';
import { JURISDICTIONS } from '../../src/domain/vocabulary.js';
import { startService, type RunningService } from '../../src/service.js';
import { COLLECTIONS } from '../../src/store/collections.js';
import { jurisdiction, rule } from '../support/docs.js';
import { makeTestApp } from '../support/test-app.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Watched {
  page: Page;
  problems: string[];
}

/** A page whose console errors, uncaught exceptions and failed or refused requests are collected. */
async function watchedPage(browser: Browser): Promise<Watched> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1100 });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return { page, problems };
}

async function seriousViolations(page: Page, context?: string): Promise<string[]> {
  await page.evaluate(AXE); // DevTools evaluation: not subject to the page's CSP, which refuses inline scripts
  const result = (await page.evaluate(
    (ctx) => (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<unknown> } }).axe.run(ctx ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }),
    context ?? null,
  )) as { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes, e.g. ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`);
}

async function ready(page: Page): Promise<void> {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
}

describe('pages in a real browser: coverage explorer and API reference (chromium, axe-core)', function () {
  this.timeout(180_000);
  let browser: Browser;
  let svc: RunningService;
  let url: string;
  let key: string;
  let manifest: Json;

  before(async function () {
    if (!CHROMIUM) {
      console.warn('    chromium not found (/usr/bin/chromium or CHROMIUM_PATH): the browser tests are skipped; .ci/run installs it with apt-get install chromium');
      this.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'prauth-pages-'));
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PRAUTH_DATA_DIR: join(dir, 'data'), PRAUTH_FIXTURES_DIR: join(root, 'fixtures'), LOG_LEVEL: 'silent', OUTBOX_POLL_SECONDS: '3600' });
    svc = await startService(config, pino({ level: 'silent' }));
    url = svc.url.replace('0.0.0.0', '127.0.0.1');
    key = (await svc.deps.keys.create({ name: 'browser test' })).key;
    manifest = (await (await fetch(`${url}/v1/manifest`)).json()) as Json;
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  });
  after(async () => {
    await browser?.close();
    await svc?.stop();
  });

  describe('the coverage explorer (GET /)', () => {
    let w: Watched;
    before(async () => {
      w = await watchedPage(browser);
      await w.page.goto(`${url}/`, { waitUntil: 'load' });
      await ready(w.page);
    });
    after(async () => {
      await w?.page.close();
    });

    it('when the explorer opens, then it is ready within a second on loopback and its map draws the 51 jurisdictions as real shapes', async () => {
      const timing = await w.page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return { load: nav.loadEventEnd };
      });
      expect(timing.load, 'load event (ms after navigation start)').to.be.below(1000);
      const shapes = await w.page.$$eval('#map path.state', (els) => els.map((e) => ({ state: (e as SVGPathElement).dataset.state, d: e.getAttribute('d') ?? '', title: e.querySelector('title')?.textContent ?? '' })));
      expect(shapes).to.have.length(51);
      expect(shapes.map((s) => s.state).sort()).to.deep.equal([...JURISDICTIONS].sort());
      // Real outlines, not boxes: Texas alone has many vertices.
      expect(shapes.find((s) => s.state === 'TX')!.d.split(/[MLZ]/).length).to.be.above(50);
      for (const s of shapes) expect(s.title, s.state).to.match(/of 40 subjects verified/);
    });

    it('when each program is chosen, then the grid counts equal the manifest\'s verified coverage, per program and per state', async () => {
      const v = manifest.coverage.verified;
      const overall = await w.page.$eval('#overall', (e) => e.textContent);
      expect(overall).to.equal(`${v.rules} of ${v.of_combinations} combinations verified across all programs (${v.percent}%); 918 of them lie outside their program's benefit (Part D covers drugs, not other services) and will never have a rule.`);
      let total = 0;
      for (const program of manifest.coverage.programs as string[]) {
        await w.page.select('#f-program', program);
        await w.page.waitForSelector(`#verified-count[data-program="${program}"]`);
        const seen = await w.page.evaluate(() => ({
          cells: document.querySelectorAll('#grid button.cell').length,
          verified: document.querySelectorAll('#grid button.cell.verified').length,
          sample: document.querySelectorAll('#grid button.cell.sample').length,
          summary: Number(document.getElementById('verified-count')!.dataset.verified),
          rows: [...document.querySelectorAll('#grid tbody tr')].map((tr) => [(tr as HTMLElement).dataset.state, Number(tr.querySelector('td.count')!.textContent)] as const),
        }));
        // Part D's columns are its 20 drug classes and 2 service categories: its other services are outside its benefit.
        expect(seen.cells, program).to.equal(51 * (program === 'part_d' ? 22 : 40));
        expect(seen.verified, program).to.equal(v.by_program[program]);
        expect(seen.summary, program).to.equal(v.by_program[program]);
        expect(seen.sample, `${program}: no sample cell when only verified rules are served`).to.equal(0);
        expect(seen.rows).to.have.length(51);
        for (const [state, n] of seen.rows) expect(n, `${program} ${state}`).to.equal(v.by_state[state!][program]);
        total += seen.verified;
        if (program === 'medicaid_ffs') {
          // Indiana's fee-for-service Medicaid does not cover weight-loss drugs: a verified cell, never a plain tick.
          const cell = await w.page.$eval('#grid button.cell[data-state="IN"][data-subject="glp1_weight_loss"]', (b) => ({ text: b.textContent, cls: b.className, label: b.getAttribute('aria-label') }));
          expect(cell).to.deep.equal({ text: '✕', cls: 'cell verified not-covered', label: 'Indiana, GLP-1 agonists for weight loss: verified, not covered by the program' });
        }
      }
      expect(total).to.equal(v.rules);
    });

    it('when a verified cell is chosen and a key given, then the rule opens with its source link, evidence and last_verified, and the key stays out of the URL and storage', async () => {
      const { page } = w;
      await page.select('#f-program', 'part_d');
      await page.waitForSelector('#verified-count[data-program="part_d"]');
      const cell = (await page.$('#grid button.cell.verified'))!;
      const where = await cell.evaluate((b) => ({ state: b.dataset.state!, subject: b.dataset.subject! }));
      await cell.click();
      await page.waitForSelector('dialog#detail[open] #api-key');
      await page.type('#api-key', key);
      await page.click('#key-form button[type="submit"]');
      await page.waitForSelector('dialog#detail .source-link');
      const shown = await page.evaluate(() => ({
        source: document.querySelector<HTMLAnchorElement>('dialog#detail .source-link')!.href,
        evidence: [...document.querySelectorAll('dialog#detail ol.evidence > li')].map((li) => li.textContent ?? ''),
        lastVerified: document.querySelector('dialog#detail .last-verified')!.textContent,
        steps: document.querySelectorAll('dialog#detail ol.steps > li').length,
      }));
      const api = (await (await fetch(`${url}/v1/pauth-lookup?state=${where.state}&program=part_d&drug=${where.subject}`, { headers: { 'x-api-key': key } })).json()) as Json;
      expect(api.result.rule_status).to.equal('verified');
      expect(shown.source).to.equal(new URL(api.result.source_url).href);
      expect(shown.lastVerified).to.equal(api.result.last_verified);
      expect(shown.evidence).to.have.length(api.result.evidence.length).and.to.have.length.above(0);
      expect(shown.evidence[0]).to.contain(api.result.evidence[0].locator);
      expect(shown.steps).to.equal(api.next_steps.length);
      const kept = await page.evaluate(() => ({ href: location.href, local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage), cookie: document.cookie }));
      for (const [where2, text] of Object.entries(kept)) expect(text, where2).not.to.contain(key);
      expect(await seriousViolations(page), 'axe on the open rule').to.deep.equal([]);
      await page.screenshot({ path: join(root, 'docs', 'explorer-rule.png') });
      await page.click('#detail-close');
    });

    it('when a gap cell is chosen and the form sent, then the notify-when-ready request is recorded in the store', async () => {
      const { page } = w;
      await page.select('#f-program', 'medicaid_mco');
      await page.waitForSelector('#verified-count[data-program="medicaid_mco"]');
      const cell = (await page.$('#grid tr[data-state="TX"] button.cell.gap'))!;
      const subject = await cell.evaluate((b) => b.dataset.subject!);
      await cell.focus();
      await page.keyboard.press('Enter'); // the keyboard opens it as a click does
      await page.waitForSelector('dialog#detail[open] #notify-contact');
      await page.type('#notify-contact', 'pa.analyst@clinic.example.org');
      await page.click('#notify-form button[type="submit"]');
      await page.waitForSelector('#notify-form .result[data-outcome]');
      const outcome = await page.$eval('#notify-form .result', (p) => ({ kind: (p as HTMLElement).dataset.outcome, text: p.textContent }));
      expect(outcome, JSON.stringify(outcome)).to.deep.include({ kind: 'recorded' });
      const stored = await svc.store.collection<Json & { id: string }>(COLLECTIONS.notifications).find({ state: 'TX', subject });
      expect(stored).to.have.length(1);
      expect(stored[0]).to.include({ program: 'medicaid_mco', channel: 'email', status: 'waiting' });
      expect(JSON.stringify(stored[0])).not.to.contain('pa.analyst'); // sealed at rest
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector<HTMLDialogElement>('dialog#detail')!.open);
    });

    it('when the arrow keys are used in the grid, then focus moves cell by cell', async () => {
      const { page } = w;
      await page.focus('#grid button.cell[tabindex="0"]');
      const before = await page.evaluate(() => (document.activeElement as HTMLElement).getAttribute('aria-label'));
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      const after = await page.evaluate(() => ({ label: (document.activeElement as HTMLElement).getAttribute('aria-label'), state: (document.activeElement as HTMLElement).dataset.state }));
      expect(after.label).to.be.a('string').and.not.equal(before);
      expect(after.state).to.equal(JURISDICTIONS[1]);
    });

    it('when recent changes are shown, then they are the change feed\'s newest entries, with source links', async () => {
      const { page } = w;
      const feed = (await (await fetch(`${url}/v1/watch/feed.json?limit=30`)).json()) as Json;
      const items = await page.$$eval('#feed > li.change', (lis) => lis.map((li) => ({ text: li.textContent ?? '', source: li.querySelector('a')?.href ?? '' })));
      expect(items).to.have.length(feed.items.length).and.length.above(0);
      expect(items[0]!.text).to.contain(feed.items[0].title);
      expect(items.filter((i) => i.source.startsWith('https://')).length).to.be.above(0);
      await page.select('#changes-state', 'TX');
      await page.waitForFunction(() => /in TX/.test(document.getElementById('feed-status')!.textContent ?? ''));
      const tx = await page.$$eval('#feed > li.change .change-head', (ps) => ps.map((p) => p.textContent ?? ''));
      for (const t of tx) expect(t).to.match(/\b(TX|US)\b/);
    });

    it('when the explorer is checked with axe-core, then it has no serious or critical violation, and the screenshot is saved', async () => {
      const { page } = w;
      await page.goto(`${url}/?program=medicaid_ffs`, { waitUntil: 'load' });
      await ready(page);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await page.setViewport({ width: 1280, height: 1500 });
      await page.screenshot({ path: join(root, 'docs', 'explorer.png') });
    });

    it('then no console error, exception or failed request happened on the explorer', () => {
      expect(w.problems).to.deep.equal([]);
    });
  });

  describe('the explorer when sample rules are served (SERVE_SAMPLE_RULES=true)', () => {
    let server: Server;
    let w: Watched;
    before(async () => {
      const t = await makeTestApp([
        jurisdiction('TX'),
        rule({ state: 'TX', program: 'medicaid_mco', code: 'hepatitis_c' }),
        rule({ state: 'TX', program: 'medicaid_mco', kind: 'service', code: 'dental', status: 'sample' }),
        rule({ state: 'CA', program: 'medicaid_mco', code: 'biosimilars', status: 'sample' }),
      ]);
      server = createServer(t.app.handler);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      w = await watchedPage(browser);
      await w.page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/?program=medicaid_mco`, { waitUntil: 'load' });
      await ready(w.page);
    });
    after(async () => {
      await w?.page.close();
      await new Promise((r) => server?.close(r));
    });

    it('when the grid is drawn, then sample cells are shown apart from verified ones and can be filtered', async () => {
      const { page } = w;
      expect(await page.$$eval('#grid button.cell.verified', (b) => b.map((x) => `${(x as HTMLElement).dataset.state} ${(x as HTMLElement).dataset.subject}`))).to.deep.equal(['TX hepatitis_c']);
      expect(await page.$$eval('#grid button.cell.sample', (b) => b.map((x) => `${(x as HTMLElement).dataset.state} ${(x as HTMLElement).dataset.subject}`)).then((l) => l.sort())).to.deep.equal(['CA biosimilars', 'TX dental']);
      await page.select('#f-status', 'sample');
      expect(await page.$$eval('#grid tbody tr', (trs) => trs.map((tr) => (tr as HTMLElement).dataset.state))).to.deep.equal(['CA', 'TX']);
      await page.select('#f-subject', 'dental');
      expect(await page.$eval('#map path[data-state="TX"]', (p) => p.getAttribute('class'))).to.contain('sample');
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(w.problems).to.deep.equal([]);
    });
  });

  describe('the API reference (GET /docs)', () => {
    let w: Watched;
    let openapi: Json;
    before(async () => {
      openapi = (await (await fetch(`${url}/openapi.json`)).json()) as Json;
      w = await watchedPage(browser);
      await w.page.goto(`${url}/docs`, { waitUntil: 'load' });
      await ready(w.page);
    });
    after(async () => {
      await w?.page.close();
    });

    it('when it is rendered, then it lists every operation of /openapi.json', async () => {
      const expected = Object.entries(openapi.paths as Record<string, Json>).flatMap(([path, ops]) =>
        Object.keys(ops).filter((m) => ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'].includes(m)).map((m) => `${m.toUpperCase()} ${path}`),
      );
      await w.page.waitForSelector('.opblock');
      const listed = await w.page.$$eval('.opblock', (blocks) =>
        blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary [data-path]')?.getAttribute('data-path')}`),
      );
      expect(expected.length).to.be.above(40);
      expect([...new Set(expected)].filter((op) => !listed.includes(op)), 'operations missing from /docs').to.deep.equal([]);
    });

    it('when an operation is tried out, then the running service answers it in the page', async () => {
      const { page } = w;
      const block = '#operations-discovery-manifest';
      await page.click(`${block} .opblock-summary-control`);
      await page.waitForSelector(`${block} .try-out__btn`);
      await page.click(`${block} .try-out__btn`);
      await page.click(`${block} .execute`);
      await page.waitForSelector(`${block} .live-responses-table tbody .response-col_status`);
      const status = await page.$eval(`${block} .live-responses-table tbody .response-col_status`, (td) => td.textContent?.trim());
      expect(status).to.equal('200');
      const body = await page.$eval(`${block} .live-responses-table tbody .response-col_description`, (td) => td.textContent ?? '');
      expect(body).to.contain('"interface_version"');
      expect(await seriousViolations(page), 'axe on an operation tried out').to.deep.equal([]);
      await page.click(`${block} .opblock-summary-control`);
    });

    it('when it is checked with axe-core, then it has no serious or critical violation, and the screenshot is saved', async () => {
      await w.page.goto(`${url}/docs`, { waitUntil: 'load' });
      await ready(w.page);
      await w.page.waitForSelector('.opblock');
      expect(await seriousViolations(w.page)).to.deep.equal([]);
      await w.page.screenshot({ path: join(root, 'docs', 'api-docs.png') });
    });

    it('then no console error, exception or failed request happened on the API reference', () => {
      expect(w.problems).to.deep.equal([]);
    });
  });
});
