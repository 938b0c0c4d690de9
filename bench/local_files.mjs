// The browser benchmarks' file server on 127.0.0.1: /NAME/... to the file under roots[NAME]
// (bench/browser.mjs and bench/bergamot_browser.mjs: the repository and a scratch folder), `extra`
// naming other paths' files; anything else, or a path leaving its root, is 404. Never cached.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, relative, resolve, sep } from 'node:path';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm',
};

// Resolves to {server, origin, urlOf(path)}: urlOf gives a file under one of the roots its URL.
export async function serveFiles(roots, extra = () => null) {
  const named = Object.fromEntries(Object.entries(roots).map(([name, root]) => [name, resolve(root)]));
  const fileFor = (urlPath) => {
    const given = extra(urlPath);
    if (given) return given;
    const match = /^\/([^/]+)(\/.*)$/.exec(decodeURIComponent(urlPath.split('?')[0]));
    const root = match && Object.hasOwn(named, match[1]) ? named[match[1]] : null;
    if (!root) return null;
    const path = normalize(join(root, match[2]));
    return path.startsWith(root + sep) ? path : null;
  };
  const server = createServer(async (request, response) => {
    const path = fileFor(request.url);
    const info = path && await stat(path).catch(() => null);
    if (!info?.isFile()) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found\n');
      return;
    }
    response.writeHead(200, { 'Content-Type': MIME_TYPES[extname(path)] ?? 'application/octet-stream',
      'Content-Length': info.size, 'Cache-Control': 'no-store' });
    createReadStream(path).pipe(response);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const urlOf = (path) => {
    const full = resolve(path);
    for (const [name, root] of Object.entries(named)) {
      if (full.startsWith(root + sep)) return `${origin}/${name}/${relative(root, full).split(sep).join('/')}`;
    }
    throw new Error(`${path} is in none of the served folders (${Object.values(named).join(', ')})`);
  };
  return { server, origin, urlOf };
}
