// The processes a bench run starts (the service, its bare twin) and what is read of them from /proc: CPU time
// (user + system) and resident memory.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

export interface Proc {
  url: string;
  pid: number;
  startedMs: number;
  stop(): Promise<void>;
}

/** Starts a process that prints `listening on http://host:port`; `cmd[0]` may be `npm` (then run through npm). */
export function start(cmd: string[], env: Record<string, string>): Promise<Proc> {
  const t0 = performance.now();
  const npm = cmd[0] === 'npm';
  const child = spawn(npm ? 'npm' : process.execPath, npm ? cmd.slice(1) : cmd, { cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'], detached: npm });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (!m) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        url: `http://127.0.0.1:${m[1]}`,
        pid: child.pid!,
        startedMs: performance.now() - t0,
        stop: () =>
          new Promise((r) => {
            // npm runs the service in its own process group: signal the group, and wait until all of it is gone.
            child.once('exit', () => (npm ? void groupGone(child.pid!).then(r) : r()));
            if (npm) process.kill(-child.pid!, 'SIGTERM');
            else child.kill('SIGTERM');
          }),

      });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

async function groupGone(pgid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  process.kill(-pgid, 'SIGKILL'); // still there after 4 s: the measurement is over, it must not hold the data directory
}

/**
 * Waits until no live process holds the data directory's lock (a stopped service can still be compacting its files
 * and releasing the lock when the next one starts); a holder still there after 30 s (a service of an earlier step
 * of this run whose shutdown is stuck) is killed, and said so.
 */
export async function lockFree(dataDir: string): Promise<void> {
  const path = join(dataDir, 'prauth.lock');
  let pid = 0;
  for (let i = 0; i < 600 && existsSync(path); i++) {
    try {
      pid = (JSON.parse(readFileSync(path, 'utf8')) as { pid: number }).pid;
      process.kill(pid, 0);
    } catch {
      return; // a dead holder's lock counts as free
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!existsSync(path)) return;
  process.stderr.write(`bench: pid ${pid} still holds ${dataDir} 30 s after it was stopped: killed\n`);
  process.kill(pid, 'SIGKILL');
}

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** CPU time the process has used so far, in microseconds (utime + stime from /proc/<pid>/stat). */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/** Resident set size in MB (VmRSS). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}
