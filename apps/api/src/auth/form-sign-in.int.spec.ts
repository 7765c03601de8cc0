import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SCREEN_FILE, FIRST_SCREEN_SLOTS, type FirstScreen } from '@kamai/contracts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

/**
 * The sign-in form the server draws into /login (docs/first-screen.md) and the form post it makes
 * before the app's script has come: the same sign-in as the JSON route, answered with redirects.
 */

// A built web app in miniature: index.html and the sign-in screen the build draws in each language.
const dist = mkdtempSync(join(tmpdir(), 'kamai-first-screen-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html>\n<html lang="en-IN">\n  <head>\n    <title>Kamai</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n');
const screen = (language: string): FirstScreen => ({
  html: `<main id="first-screen" data-language="${language}"><form method="get">${FIRST_SCREEN_SLOTS.redirect}</form><form method="post">${FIRST_SCREEN_SLOTS.redirect}${FIRST_SCREEN_SLOTS.error}</form></main>`,
  title: `Title ${language}`,
  errors: { invalid_credentials: `<p>bad ${language}</p>`, validation_failed: `<p>invalid ${language}</p>`, too_many_attempts: `<p>wait ${language}</p>` },
});
writeFileSync(join(dist, FIRST_SCREEN_FILE), JSON.stringify({ en: screen('en'), hi: screen('hi') }));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WEB_DIST: dist });
});
afterAll(async () => {
  await server.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const postForm = (client: TestClient, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  client.request('POST', '/api/auth/login/form', new URLSearchParams(fields).toString(), { ...FORM, ...headers });
const sessionCookie = (headers: Headers) => headers.getSetCookie().find((line) => line.startsWith('kamai_session='));

describe('POST /api/auth/login/form', () => {
  it('signs in as the JSON route does and sends the browser on to the app (303), or where `redirect` says', async () => {
    const user = await server.signUp({ password: 'form-pass1' });
    const browser = server.client();
    const res = await postForm(browser, { mobile: `+91 ${user.mobile}`, password: 'form-pass1', redirect: '/tasks?tab=open' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/tasks?tab=open');
    expect(sessionCookie(res.headers)).toMatch(/HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/);
    expect(res.headers.getSetCookie().some((line) => line.startsWith('kamai_device='))).toBe(true);
    expect((await browser.get('/api/auth/user')).body.id).toBe(user.userId);
    // Another site as the place to return to is dropped: the app's home instead.
    const elsewhere = await postForm(server.client(), { mobile: user.mobile, password: 'form-pass1', redirect: '//evil.example/x' });
    expect(elsewhere.headers.get('location')).toBe('/');
  });

  it('sends a refusal back to /login by its code, with no session', async () => {
    const user = await server.signUp({ password: 'form-pass1' });
    const wrong = await postForm(server.client(), { mobile: user.mobile, password: 'not-it-1', redirect: '/wallet' });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe('/login?error=invalid_credentials&redirect=%2Fwallet');
    expect(sessionCookie(wrong.headers)).toBeUndefined();
    const malformed = await postForm(server.client(), { mobile: '98765', password: '' });
    expect(malformed.headers.get('location')).toBe('/login?error=validation_failed');
    const empty = await server.client().request('POST', '/api/auth/login/form', '', FORM);
    expect(empty.headers.get('location')).toBe('/login?error=validation_failed');
  });

  it('counts its guesses with the JSON route’s: the number is held off after ten, whichever way they came', async () => {
    const user = await server.signUp({ password: 'form-pass1' });
    for (let i = 0; i < 5; i++) expect((await server.client().post('/api/auth/login', { mobile: user.mobile, password: `guess-${i}-x` })).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await postForm(server.client(), { mobile: user.mobile, password: `guess-${i}-y` })).headers.get('location')).toBe('/login?error=invalid_credentials');
    const held = await postForm(server.client(), { mobile: user.mobile, password: 'form-pass1' });
    expect(held.headers.get('location')).toBe('/login?error=too_many_attempts');
    expect(sessionCookie(held.headers)).toBeUndefined();
  });

  it('refuses a post from another site (403, nothing signed in), as every /api write', async () => {
    const user = await server.signUp({ password: 'form-pass1' });
    const forged = await postForm(server.client(), { mobile: user.mobile, password: 'form-pass1' }, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ error: { code: 'cross_site_request' } });
    expect(sessionCookie(forged.headers)).toBeUndefined();
    const unmarked = await postForm(server.client(), { mobile: user.mobile, password: 'form-pass1' }, { origin: '' });
    expect(unmarked.status).toBe(403);
    // The app's own page posts with Origin `null` (its no-referrer policy) and says same-origin.
    const own = await postForm(server.client(), { mobile: user.mobile, password: 'form-pass1' }, { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toBe('/');
  });
});

describe('GET /login drawn by the server', () => {
  const page = (client: TestClient, path: string, headers: Record<string, string> = {}) => client.request<string>('GET', path, undefined, headers);

  it('puts the sign-in form before the app’s root, in the reader’s language, with the refusal and where to return', async () => {
    const english = await page(server.client(), '/login?redirect=%2Ftasks&error=invalid_credentials');
    expect(english.status).toBe(200);
    expect(english.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(english.body).toContain('<html lang="en-IN">');
    expect(english.body).toContain('<title>Title en</title>');
    expect(english.body).toMatch(/<main id="first-screen" data-language="en">.*<p>bad en<\/p>.*<\/main><div id="root"><\/div>/);
    expect(english.body.match(/<input type="hidden" name="redirect" value="\/tasks">/g)).toHaveLength(2);
    expect(english.body).not.toContain('<!--kamai-');

    const browserHindi = await page(server.client(), '/login?error=nonsense&redirect=https://evil.example', { 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.8' });
    expect(browserHindi.body).toContain('<html lang="hi">');
    expect(browserHindi.body).toContain('data-language="hi"');
    expect(browserHindi.body).not.toContain('name="redirect"');
    expect(browserHindi.body).not.toContain('<p>');
    // The app's choice (its cookie) wins over the browser's.
    const chosen = await page(server.client(), '/login', { 'accept-language': 'hi', cookie: 'kamai_lang=en' });
    expect(chosen.body).toContain('data-language="en"');
  });

  it('writes the reader’s redirect as text: quotes escaped, and `$\'` or `$&` in it are not replacement patterns', async () => {
    const redirect = "/tasks/$'\"><b>x</b>$&";
    const drawn = await page(server.client(), `/login?redirect=${encodeURIComponent(redirect)}`);
    expect(drawn.status).toBe(200);
    const values = [...drawn.body.matchAll(/<input type="hidden" name="redirect" value="([^"]*)">/g)].map((match) => match[1]);
    expect(values).toHaveLength(2);
    for (const value of values) expect(value).toBe('/tasks/$&#39;%22%3E%3Cb%3Ex%3C/b%3E$&amp;');
    expect(drawn.body).not.toContain('<b>');
    expect(drawn.body.match(/<div id="root"><\/div>/g)).toHaveLength(1);
  });

  it('switches language without the app: ?lang= draws the page in it and tells the app’s cookie', async () => {
    const switched = await page(server.client(), '/login?lang=hi&redirect=%2Fwallet', { cookie: 'kamai_lang=en' });
    expect(switched.status).toBe(200);
    expect(switched.body).toContain('data-language="hi"');
    expect(switched.body).toContain('name="redirect" value="/wallet"');
    expect(switched.headers.getSetCookie().find((line) => line.startsWith('kamai_lang='))).toMatch(/^kamai_lang=hi;.*Path=\//);
  });

  it('leaves the form out for a signed-in reader and on every other page', async () => {
    const user = await server.signUp();
    const signedIn = await page(user, '/login');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).not.toContain('first-screen');
    expect(signedIn.body).toContain('<div id="root"></div>');
    expect((await page(server.client(), '/register')).body).not.toContain('first-screen');
  });
});
