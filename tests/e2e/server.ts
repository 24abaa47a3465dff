/**
 * Global set-up of the browser tests: build the web client once into a temporary folder, migrate
 * and seed two temporary SQLite databases, and start two `coldchain serve` on free ports:
 *
 * - `baseURL`: the domestic edition with the test server's development payment gateway (its QR
 *   code is a signed pay link);
 * - `internationalBaseURL`: the international edition with the real provider adapters (stripe,
 *   paypal-server-sdk, ...) against the local payment sandbox at `paymentSandboxURL`.
 *
 * Both are stopped afterwards; nothing of the developer's `var/` is touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
    /** The domestic edition, development payment gateway. */
    baseURL: string;
    /** The international edition, real payment adapters against the local payment sandbox. */
    internationalBaseURL: string;
    /** The payment sandbox the international server pays at (payer pages under /pay/). */
    paymentSandboxURL: string;
    /** The web client built once, for a test file that serves a console of its own. */
    webDist: string;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Waits until `url` answers 2xx; fails early when `server` exits. */
export async function waitForOk(url: string, what: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`${what} exited:\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not answer at ${url} within 60 s:\n${log()}`);
}

/** Runs `coldchain <command> [arguments]` to its end; rejects with its output when it fails. */
export function run(command: string | string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(coldchain, typeof command === 'string' ? [command] : command, { env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`coldchain ${command} failed:\n${output}`))));
  });
}

export interface Served {
  process: ChildProcess;
  output: () => string;
}

/** `coldchain <arguments>` left running, its output kept. */
export function start(args: string[], env: NodeJS.ProcessEnv): Served {
  let output = '';
  const server = spawn(coldchain, args, { env });
  server.stdout?.on('data', (chunk) => (output += chunk));
  server.stderr?.on('data', (chunk) => (output += chunk));
  return { process: server, output: () => output };
}

function serve(port: number, env: NodeJS.ProcessEnv): Served {
  return start(['serve', '--host', '127.0.0.1', '--port', String(port)], env);
}

/** Stops a server and waits for it (at most 10 s, then SIGKILL). */
export function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

/**
 * The environment of the developer's shell without what would point a server elsewhere: real
 * provider keys or URLs, another database, broker or sandbox.
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  const foreign = /^(WECHAT_|ALIPAY_|STRIPE_|PAYPAL_|SMS_|SMTP_|MQTT_|PAYMENT_|NOTIFICATION_)/;
  for (const name of Object.keys(env)) {
    if (foreign.test(name) || ['PUBLIC_BASE_URL', 'DATABASE_URL', 'VAR_DIR', 'PROXY_COUNT'].includes(name)) delete env[name];
  }
  return env;
}

export const COMMON = {
  SECRET_KEY: 'e2e-secret-key-that-is-long-enough-0123456789',
  PASSWORD_HASH_MEMORY_KIB: '8192',
  PASSWORD_HASH_TIME_COST: '1',
  LOG_LEVEL: 'warning',
};

/**
 * The web client as `npm run build` makes it. Vitest runs with NODE_ENV=test, which Vite would
 * write into the bundle: React's development build (a 524 kB chunk, and not what ships).
 */
async function buildClient(outDir: string): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(repo, 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir } });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const work = mkdtempSync(join(tmpdir(), 'coldchain-e2e-'));
  // run-shards.sh builds the client once for all its shards (E2E_WEB_DIST); a plain run builds its own.
  const prebuilt = process.env.E2E_WEB_DIST;
  const dist = prebuilt ?? join(work, 'dist');
  const intlVar = join(work, 'international');
  mkdirSync(intlVar);
  const [port, intlPort, sandboxPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const baseURL = `http://127.0.0.1:${port}`;
  const internationalBaseURL = `http://127.0.0.1:${intlPort}`;
  const paymentSandboxURL = `http://127.0.0.1:${sandboxPort}`;

  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    ...COMMON,
    APP_ENV: 'test',
    VAR_DIR: work,
    DATABASE_URL: `sqlite:///${join(work, 'e2e.db')}`,
    WEB_DIST: dist,
    EDITION: 'domestic',
  };
  // The international server runs as APP_ENV=development, the one mode where the console pays
  // end to end with no configuration: its provider credentials default to the ones generated once
  // into $VAR_DIR/payment-sandbox.json (settings._payments), and `coldchain serve` runs the
  // payment sandbox in-process at PAYMENT_SANDBOX_URL with those same credentials
  // (local_sandbox.start_local_sandbox). Under APP_ENV=test neither happens: a separate
  // `coldchain payment-sandbox` process would generate the credentials and every one of them
  // would have to be copied into the console's environment. What development mode does besides is
  // switched off or kept here: its own VAR_DIR (the generated secrets, credentials and the
  // database stay in the temporary folder, never the repository's var/), MQTT_EMBEDDED=0 (no
  // in-process broker or ingest worker, which would take or reach 127.0.0.1:1883), an explicit
  // SECRET_KEY, a free port for the sandbox, and PUBLIC_BASE_URL = this server (Stripe's webhook,
  // PayPal's return and cancel URLs).
  const intlEnv: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    ...COMMON,
    APP_ENV: 'development',
    VAR_DIR: intlVar,
    DATABASE_URL: `sqlite:///${join(intlVar, 'e2e.db')}`,
    WEB_DIST: dist,
    EDITION: 'international',
    MQTT_EMBEDDED: '0',
    PAYMENT_BACKEND: 'providers',
    PAYMENT_SANDBOX_URL: paymentSandboxURL,
    PUBLIC_BASE_URL: internationalBaseURL,
    NOTIFICATION_BACKEND: 'development',
  };

  const prepare = (e: NodeJS.ProcessEnv) => run('migrate', e).then(() => run('demo-seed', e));
  await Promise.all([prebuilt ? Promise.resolve() : buildClient(dist), prepare(env), prepare(intlEnv)]);

  const servers = [serve(port, env), serve(intlPort, intlEnv)];
  const teardown = async () => {
    await Promise.all(servers.map((server) => stop(server.process)));
    // What went wrong inside a server (a worker killed, a traceback) is otherwise lost with it:
    // a test that saw only "other side closed" is explained here.
    for (const [name, server] of [['domestic', servers[0]], ['international', servers[1]]] as const) {
      const trouble = server!.output().split('\n').filter((line) => /WORKER TIMEOUT|CRITICAL|Traceback|\bERROR\b/.test(line));
      if (trouble.length) console.error(`coldchain serve (${name}) reported:\n${trouble.slice(-40).join('\n')}`);
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const [domestic, international] = servers as [Served, Served];
    await Promise.all([
      waitForOk(`${baseURL}/api/base/health`, 'coldchain serve (domestic)', domestic.process, domestic.output),
      waitForOk(`${internationalBaseURL}/api/base/health`, 'coldchain serve (international)', international.process,
        international.output),
    ]);
    // The sandbox starts with the server's worker; were its port taken meanwhile, the server would
    // go on without it (taking that for another console's sandbox): check that it answers.
    await waitForOk(`${paymentSandboxURL}/health`, 'the payment sandbox', international.process, international.output);
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('baseURL', baseURL);
  project.provide('internationalBaseURL', internationalBaseURL);
  project.provide('paymentSandboxURL', paymentSandboxURL);
  project.provide('webDist', dist);
  return teardown;
}
