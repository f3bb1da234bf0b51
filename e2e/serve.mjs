// A static server for the release build (dist/), used by the end-to-end tests.
// Serves .wasm as application/wasm so the browser compiles it while it downloads.
// Usage: node e2e/serve.mjs [dir] [port]   (127.0.0.1 only)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP } from './csp.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(process.argv[2] ?? join(here, '..', 'dist'));
const port = Number(process.argv[3] ?? process.env.PORT ?? 4173);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
  let file = normalize(join(root, path));
  if (!file.startsWith(root)) {
    response.writeHead(403).end();
    return;
  }
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    const body = await readFile(file);
    const type = types[extname(file)] ?? 'application/octet-stream';
    // Every page under the strict policy careful hosts set (docs/csp.md):
    // the whole suite then fails on anything it blocks. NO_CSP=1 serves without it.
    const headers = { 'content-type': type };
    if (type.startsWith('text/html') && !process.env.NO_CSP) headers['content-security-policy'] = CSP;
    response.writeHead(200, headers);
    response.end(body);
  } catch {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
}).listen(port, '127.0.0.1', () => console.log(`serving ${root} at http://127.0.0.1:${port}/`));
