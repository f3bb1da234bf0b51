// RoPE Lab's offline worker, written by .ci/offline.mjs for one release build (BUILD and FILES
// are filled in there). After one visit the whole page works without a network: installing
// stores every file of the build (the frame, the chapters' parts, the styles, the images) in a
// cache named by the build, each checked against its SHA-256, or none at all; activating deletes
// the caches of other builds, so the page never mixes parts of two.
const BUILD = '__BUILD__';
const FILES = __FILES__;

const scope = self.registration.scope;
// Two copies of the page in two folders of one host share its caches: each keeps to its own.
const prefix = `rope-lab ${scope} `;
const cacheName = prefix + BUILD;
const lessonCache = prefix + 'lessons';
// The models a reader asked for (SmolLM2's 98 MB), stored by the model's worker: kept across builds.
const modelCache = prefix + 'models';
const page = new URL('index.html', scope).href;
const listed = new Map(FILES.map(([path, integrity]) => [new URL(path, scope).href, integrity]));

addEventListener('install', (event) => event.waitUntil(store()));

async function store() {
  const cache = await caches.open(cacheName);
  try {
    await Promise.all([...listed].map(async ([url, integrity]) => {
      // The browser's HTTP cache may hold a file of another build (index.html, the images): a
      // file that fails its check is fetched again from the server.
      const response = await fetch(url, { integrity }).catch(() => fetch(url, { integrity, cache: 'reload' }));
      if (!response.ok) throw new Error(`offline: ${url} answered ${response.status}`);
      await cache.put(url, response);
    }));
  } catch (error) {
    // All or nothing: the page keeps the build it had (or the network).
    await caches.delete(cacheName);
    throw error;
  }
}

addEventListener('activate', (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) {
    if (name.startsWith(prefix) && name !== cacheName && name !== lessonCache && name !== modelCache) await caches.delete(name);
  }
  // The page of the first visit reads its next parts from the cache too.
  await clients.claim();
})()));

// A page reloaded while a new build waits (see below) asks it to take over; a page that read a
// lesson file before this worker controlled it asks it to keep that file (register.js).
addEventListener('message', (event) => {
  if (event.data === 'take over') event.waitUntil(skipWaiting().then(() => event.ports[0]?.postMessage('taken')));
  const keep = event.data?.keep;
  if (typeof keep === 'string' && isLesson(new URL(keep))) event.waitUntil(lesson(new Request(keep)).catch(() => {}));
});

/** A lesson file a teacher serves beside the page: a .json under the page's folder, not the build's. */
function isLesson(url) {
  const bare = url.origin + url.pathname;
  return !listed.has(bare) && bare.startsWith(scope) && url.pathname.endsWith('.json');
}

let handedOver = 0;

addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const bare = url.origin + url.pathname;
  if (request.mode === 'navigate' && (bare === scope || bare === page)) {
    // The page is driven by its query (?m=3&n=1#clocks): every address of it is index.html.
    event.respondWith(open(request));
  } else if (listed.has(bare)) {
    event.respondWith(caches.match(bare, { cacheName }).then((hit) => hit ?? fetch(request)));
  } else if (isLesson(url)) {
    // Lesson files a teacher serves beside the page: the newest when online, the last seen when not.
    event.respondWith(lesson(request));
  }
});

async function open(request) {
  // A new build installed while the page was open waits until no tab shows the old one. A reload
  // of the only tab hands over to it and reloads (once in a while at most: no loop if it cannot).
  const waiting = self.registration.waiting;
  if (waiting && Date.now() - handedOver > 10_000 && (await clients.matchAll({ type: 'window' })).length < 2) {
    handedOver = Date.now();
    const { port1, port2 } = new MessageChannel();
    const taken = new Promise((done) => { port1.onmessage = done; setTimeout(done, 1000); });
    waiting.postMessage('take over', [port2]);
    await taken;
    // It activates once this answer is given; the page then loads again, from it.
    return new Response('<!doctype html><meta name="color-scheme" content="light dark"><link rel="icon" href="data:,">', {
      headers: { 'content-type': 'text/html; charset=utf-8', refresh: '0' },
    });
  }
  return (await caches.match(page, { cacheName })) ?? fetch(request);
}

async function lesson(request) {
  const cache = await caches.open(lessonCache);
  try {
    const response = await fetch(request);
    // Only a whole, same-origin answer is kept: no error pages, no opaque responses.
    if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
    return response;
  } catch (error) {
    return (await cache.match(request, { ignoreVary: true })) ?? Promise.reject(error);
  }
}
