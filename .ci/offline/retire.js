// Written by .ci/offline.mjs in every build but the release build with parts (trunk serve, a plain
// trunk build): a browser that ran a release build's offline worker on this address checks this
// file on its next visit, and this worker then removes that one and its caches and reloads the
// page, so that the page shown is the one being served, not the cached build.
addEventListener('install', () => skipWaiting());
addEventListener('activate', (event) => event.waitUntil((async () => {
  const prefix = `rope-lab ${self.registration.scope} `;
  const stale = (await caches.keys()).filter((name) => name.startsWith(prefix) && name !== prefix + 'models');
  for (const name of stale) await caches.delete(name);
  await clients.claim();
  await self.registration.unregister();
  // Only a page that may show a stored build is reloaded (never twice).
  if (stale.length) for (const client of await clients.matchAll({ type: 'window' })) await client.navigate(client.url).catch(() => {});
})()));
