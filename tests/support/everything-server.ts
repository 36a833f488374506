import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface EverythingServer {
  /** The endpoint on 127.0.0.1: `/mcp` (Streamable HTTP) or `/sse` (the legacy HTTP+SSE transport). */
  url: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The reference MCP server `@modelcontextprotocol/server-everything` (a devDependency) in its Streamable HTTP
 * or legacy SSE mode, as its own process. It takes only a port (it listens on every interface); the tests reach it
 * on 127.0.0.1.
 */
export async function startEverythingServer(
  mode: 'streamableHttp' | 'sse' = 'streamableHttp',
): Promise<EverythingServer> {
  const packageJson = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json');
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(dirname(packageJson), 'dist/index.js'), mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(`on port ${port}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${String(code)}): ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
