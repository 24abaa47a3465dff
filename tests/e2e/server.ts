/**
 * Global set-up of the browser tests: build the web client into a temporary folder, migrate and
 * seed a temporary SQLite database, start `coldchain serve` on a free port, and give the tests
 * its address. The server is stopped afterwards; nothing of the developer's `var/` is touched.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const coldchain = join(repo, '.venv', 'bin', 'coldchain');

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`coldchain serve exited:\n${log()}`);
    try {
      if ((await fetch(`${url}/api/base/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`coldchain serve did not answer within 60 s:\n${log()}`);
}

export default async function setup(project: TestProject): Promise<() => void> {
  const work = mkdtempSync(join(tmpdir(), 'coldchain-e2e-'));
  const dist = join(work, 'dist');
  await build({ configFile: join(repo, 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir: dist } });

  const env = {
    ...process.env,
    APP_ENV: 'test',
    VAR_DIR: work,
    DATABASE_URL: `sqlite:///${join(work, 'e2e.db')}`,
    WEB_DIST: dist,
    EDITION: 'domestic',
    SECRET_KEY: 'e2e-secret-key-that-is-long-enough-0123456789',
    PASSWORD_HASH_MEMORY_KIB: '8192',
    PASSWORD_HASH_TIME_COST: '1',
    LOG_LEVEL: 'warning',
  };
  for (const command of ['migrate', 'demo-seed']) {
    const result = spawnSync(coldchain, [command], { env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`coldchain ${command} failed:\n${result.stderr}`);
  }

  const port = await freePort();
  let output = '';
  const server = spawn(coldchain, ['serve', '--host', '127.0.0.1', '--port', String(port)], { env });
  server.stdout?.on('data', (chunk) => (output += chunk));
  server.stderr?.on('data', (chunk) => (output += chunk));
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForHealth(baseURL, server, () => output);
  project.provide('baseURL', baseURL);

  return () => {
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  };
}
