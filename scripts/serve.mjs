#!/usr/bin/env node
// Static server for the web app: serves a directory (the repo root by default, so /web/,
// /wasm/ and /models/ are all reachable) on 127.0.0.1 and prints the app's URL.
//
//   node scripts/serve.mjs [--port 8080] [--root DIR]      (--port 0 picks a free port)
//
// Pages are served cross-origin isolated (COOP/COEP) so the page can share a
// SharedArrayBuffer with its worker, which lets the worker cancel a stale translation
// between two decoding steps. Each file has an ETag (its size and modification time), and a
// request whose If-None-Match names it gets 304: the service worker revalidates its cached
// models that way, so an unchanged model is not downloaded again.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.safetensors': 'application/octet-stream',
};

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    root: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
  },
});
const root = resolve(options.root);

// Maps a URL path to a file under root, or null if it would leave root.
function filePathFor(urlPath) {
  const decoded = decodeURIComponent(urlPath.split('?')[0]);
  const path = normalize(join(root, decoded));
  return path === root || path.startsWith(root + sep) ? path : null;
}

async function existingFile(path) {
  const info = await stat(path).catch(() => null);
  if (info?.isDirectory()) return existingFile(join(path, 'index.html'));
  return info?.isFile() ? { path, size: info.size, etag: `"${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"` } : null;
}

const isUnchanged = (request, etag) => (request.headers['if-none-match'] ?? '').split(',').some((tag) => tag.trim() === etag);

function sendText(response, status, text) {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(text);
}

const server = createServer(async (request, response) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return sendText(response, 405, 'method not allowed\n');
  if (request.url === '/') {
    response.writeHead(302, { Location: '/web/' });
    return response.end();
  }
  let path;
  try {
    path = filePathFor(request.url);
  } catch {
    return sendText(response, 400, 'bad path\n');
  }
  const file = path && (await existingFile(path));
  if (!file) return sendText(response, 404, `not found: ${request.url}\n`);
  const headers = {
    ETag: file.etag,
    'Cache-Control': 'no-cache',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (isUnchanged(request, file.etag)) {
    response.writeHead(304, headers);
    return response.end();
  }
  response.writeHead(200, {
    ...headers,
    'Content-Type': MIME_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': file.size,
  });
  if (request.method === 'HEAD') return response.end();
  createReadStream(file.path).on('error', () => response.destroy()).pipe(response);
});

server.listen(Number(options.port), '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`Serving ${root} at http://127.0.0.1:${port}/web/`);
});
