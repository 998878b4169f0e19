// The pages as HTTP resources (the browser suite, test/browser, checks what they show): served from memory with a
// CSP that allows only this origin, validators, HEAD, and the JSON 404 for what is not a page.
import { expect } from 'chai';
import request from 'supertest';
import { makeTestApp, type TestApp } from '../support/test-app.js';

describe('pages: GET /, /explorer, /docs and /assets/*', () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp([]);
  });

  it('when the explorer is asked for, then it is HTML under a CSP that allows only this origin', async () => {
    for (const path of ['/', '/explorer']) {
      const res = await request(t.app.handler).get(path);
      expect(res.status, path).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.text).to.contain('<script type="module" src="/assets/explorer.js"></script>');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).to.contain("default-src 'self'").and.contain("script-src 'self'").and.contain("style-src 'self'").and.contain("connect-src 'self'").and.contain("frame-ancestors 'none'");
      expect(csp).not.to.match(/unsafe-inline|unsafe-eval|https:|upgrade-insecure-requests/);
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.headers['cache-control']).to.equal('no-cache');
    }
  });

  it('when /docs and the assets are asked for, then each comes with its type, and every script and stylesheet a page names is served', async () => {
    const docs = await request(t.app.handler).get('/docs');
    expect(docs.status).to.equal(200);
    expect(docs.text).to.contain('/assets/swagger-ui/swagger-ui-bundle.js');
    for (const page of ['/', '/docs']) {
      const html = (await request(t.app.handler).get(page)).text;
      const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(refs.length, page).to.be.above(1);
      for (const ref of refs) {
        const res = await request(t.app.handler).get(ref);
        expect(res.status, ref).to.equal(200);
        expect(res.headers['content-type'], ref).to.match(ref.endsWith('.js') ? /^text\/javascript/ : ref.endsWith('.css') ? /^text\/css/ : /^image\/svg\+xml/);
      }
    }
    // No outside host anywhere in what the explorer loads (the bundle carries its map data).
    const bundle = (await request(t.app.handler).get('/assets/explorer.js')).text;
    expect(bundle.length).to.be.above(50_000);
    expect(bundle).not.to.match(/https?:\/\/(?!www\.w3\.org\/2000\/svg)[a-z0-9.-]+\.[a-z]{2,}\//i);
  });

  it('when a page is asked again with its ETag, or with HEAD, then 304 or the headers alone', async () => {
    const first = await request(t.app.handler).get('/');
    const again = await request(t.app.handler).get('/').set('If-None-Match', first.headers.etag!);
    expect(again.status).to.equal(304);
    expect(again.text ?? '').to.equal('');
    const head = await request(t.app.handler).head('/docs');
    expect(head.status).to.equal(200);
    expect(Number(head.headers['content-length'])).to.be.above(100);
  });

  it('when a path is not a page, or a page is posted to, then the JSON 404', async () => {
    for (const [method, path] of [['get', '/assets/nope.js'], ['get', '/docs/'], ['post', '/']] as const) {
      const res = await request(t.app.handler)[method](path).send();
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body.code, `${method} ${path}`).to.equal('not_found');
    }
  });
});
