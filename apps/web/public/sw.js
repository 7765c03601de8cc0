/*
 * Kamai's service worker, hand-written and small: it keeps the app shell (index.html and the
 * built assets it loads) so the app opens without a network and can say "You are offline".
 * - Page navigations: the network first (fresh deploys win), the cached shell when offline.
 * - /assets/*: file names carry a content hash, so cache first; those index.html names are kept at
 *   install, the others as they are fetched.
 * - /api/* and everything else: the network only; money and tasks are never shown from a cache.
 * - push: an alert from the server (docs/push.md) is shown as a notification, and told to any open
 *   page of the app; a tap on it opens (or focuses) the app at the alert's page.
 * Registered from the app's own module (no inline script), so a strict CSP needs no exception.
 */
const CACHE = 'kamai-shell-v1';
const SHELL = ['/', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

/**
 * The files index.html names (the entry, its preloads, the stylesheet, and Home's chunk in a
 * `<meta name="kamai-shell" content=…>`): what the first screens run on.
 */
function assetsOf(html) {
  return [...new Set([...html.matchAll(/(?:src|href|content)="(\/assets\/[^"]+)"/g)].map((match) => match[1]))];
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // The shell's assets too, so a return visit reads them all from here: otherwise only the files
      // fetched after this worker took control were kept, and a second visit fetched the rest again.
      .then((cache) =>
        cache
          .addAll(SHELL)
          .then(() => cache.match('/'))
          .then((page) => (page ? page.text() : ''))
          .then((html) => cache.addAll(assetsOf(html))),
      )
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/objects/')) return;

  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          // The shell is the same for every path (client routing): keep the newest under '/'. Not
          // /login's: it carries the sign-in form the server drew (docs/first-screen.md), which an
          // offline visit to another screen must not show.
          if (response.ok && url.pathname !== '/login') {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put('/', copy));
          }
          return response;
        })
        .catch(() => caches.match('/').then((cached) => cached || Response.error())),
    );
    return;
  }

  if (url.pathname.startsWith('/assets/') || SHELL.includes(url.pathname)) {
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});

self.addEventListener('push', (event) => {
  let alert = null;
  try {
    alert = event.data ? event.data.json() : null;
  } catch {
    alert = null;
  }
  // A push must show something (userVisibleOnly): an unreadable one still names the app.
  const title = alert && typeof alert.title === 'string' ? alert.title : 'Kamai';
  const options = {
    body: alert && typeof alert.body === 'string' ? alert.body : '',
    tag: alert && typeof alert.tag === 'string' ? alert.tag : undefined,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: alert && typeof alert.url === 'string' && alert.url.startsWith('/') ? alert.url : '/' },
  };
  // The open pages are told once the alert is shown (or could not be), so a page that hears of it finds it
  // among the registration's notifications.
  event.waitUntil(
    self.registration
      .showNotification(title, options)
      .catch(() => undefined)
      .then(() => self.clients.matchAll({ type: 'window', includeUncontrolled: true }))
      .then((pages) => pages.forEach((page) => page.postMessage({ type: 'kamai-push', alert }))),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
      const open = pages.find((page) => page.url.startsWith(self.location.origin));
      return open ? open.navigate(url).then((page) => (page ?? open).focus()) : self.clients.openWindow(url);
    }),
  );
});
