// Appended to the boot script by .ci/offline.mjs in the release build with parts: once the page
// is idle, the offline worker is registered, which stores the whole page in the background. Not
// from an embedded widget: a blog's readers download the widget they read, not the whole page.
// (Browsers offer service workers on https and localhost only; elsewhere this does nothing.)
if ('serviceWorker' in navigator && !new URLSearchParams(location.search).has('embed')) {
  (self.requestIdleCallback ?? setTimeout)(() => navigator.serviceWorker.register('./service-worker.js').catch(() => {}), { timeout: 10000 });
}
