// Appended to the boot script by .ci/offline.mjs in the release build with parts: once the page
// is idle, the offline worker is registered, which stores the whole page in the background. Not
// from an embedded widget: a blog's readers download the widget they read, not the whole page.
// (Browsers offer service workers on https and localhost only; elsewhere this does nothing.)
//
// A teacher's lesson file (`?lesson=lessons/mine.json`) is read by the page before the worker of
// a first visit controls it, so the worker never sees that read: it is asked to keep the file
// once it is active, and the lesson then opens offline too. The address is read now, before the
// page rewrites it for the lesson's steps.
if ('serviceWorker' in navigator && !new URLSearchParams(location.search).has('embed')) {
  const lesson = new URLSearchParams(location.search).get('lesson');
  (self.requestIdleCallback ?? setTimeout)(() => {
    navigator.serviceWorker.register('./service-worker.js').catch(() => {});
    if (lesson && lesson.endsWith('.json')) {
      const url = new URL(lesson, location.href).href;
      navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ keep: url })).catch(() => {});
    }
  }, { timeout: 10000 });
}
