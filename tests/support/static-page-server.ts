import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

export const TEST_PAGES = resolve(import.meta.dirname, '../pages');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** A one-page PDF, small enough to write here. */
export const REPORT_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export interface PageServers {
  /** `http://127.0.0.1:<port>` serving tests/pages. */
  origin: string;
  /** The same pages on another port: another origin, for cross-origin frames. */
  crossOrigin: string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/**
 * Two static servers of tests/pages on 127.0.0.1; `{{CROSS_ORIGIN}}` in a page becomes the other server's origin, and
 * `/status/<code>` answers with that status.
 */
export async function startPageServers(root = TEST_PAGES): Promise<PageServers> {
  const origins: string[] = [];
  const handler = (index: number) =>
    createServer(async (request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
      // `/status/<code>` answers any method with that status: a failing endpoint for the pages' requests.
      const status = /^\/status\/([1-5]\d\d)$/.exec(path);
      if (status) return void response.writeHead(Number(status[1]), { 'content-type': 'text/plain' }).end('status');
      // `/download/report.pdf`: a small PDF the browser saves (Content-Disposition: attachment), never shows.
      if (path === '/download/report.pdf')
        return void response
          .writeHead(200, {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="report.pdf"',
            'content-length': String(REPORT_PDF.byteLength),
          })
          .end(REPORT_PDF);
      const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
      if (!file.startsWith(root)) return void response.writeHead(403).end();
      try {
        const body = await readFile(file, 'utf8');
        const other = origins[1 - index] ?? '';
        response.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        response.end(body.replaceAll('{{CROSS_ORIGIN}}', other));
      } catch {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      }
    });
  const servers = [handler(0), handler(1)];
  origins.push(await listen(servers[0]), await listen(servers[1]));
  return {
    origin: origins[0],
    crossOrigin: origins[1],
    close: async () => {
      await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
    },
  };
}
