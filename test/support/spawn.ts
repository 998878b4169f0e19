// Runs the built service and CLI as a user would: real processes, real HTTP on port 0, a temp data directory.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/**
 * The environment a spawned service or CLI starts from: this process's, without MONGODB_URI. End-to-end tests
 * exercise the embedded store's single-writer lock unless they name a MongoDB themselves (the two-instance tests
 * pass MONGODB_URI and their own MONGODB_DB explicitly).
 */
function baseEnv(): NodeJS.ProcessEnv {
  const { MONGODB_URI: _uri, MONGODB_DB: _db, ...rest } = process.env;
  return rest;
}

/**
 * Test services serve the sample corpus too (SERVE_SAMPLE_RULES=true) unless the test sets the policy itself: spawned
 * processes here, in-process apps in test-app.ts.
 */
export function servingPolicy(env: Record<string, string>): Record<string, string> {
  return 'SERVE_SAMPLE_RULES' in env || 'SERVE_VERIFIED_ONLY' in env ? {} : { SERVE_SAMPLE_RULES: 'true' };
}

export interface Spawned {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(env: Record<string, string>, timeoutMs = 15_000): Promise<Spawned> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: root,
    env: { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...servingPolicy(env), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never leave a half-started server behind (it would outlive the test run)
      reject(new Error(`server did not start: ${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /listening on (https?):\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`${m[1]}://127.0.0.1:${m[2]}`);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out}`));
    });
  });
  return {
    child,
    url,
    output: () => out,
    stop(signal = 'SIGTERM') {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
}

export async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/prauth.mjs', ...args], { cwd: root, env: { ...baseEnv(), ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export function runServerOnce(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env: { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', ...servingPolicy(env), ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: out });
    });
  });
}
