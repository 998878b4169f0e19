// The embedded store belongs to one process at a time. Whoever opens it takes `prauth.lock` in the data
// directory (created with O_EXCL). A running server records its admin URL and a random operator token (file mode
// 0600) there, so the CLI sends its writes through the server instead of opening the files behind its back.
import { closeSync, openSync, readdirSync, readFileSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Servers on this machine also leave a pointer (pid, data directory, address; no token) in a per-user folder of the
 * temporary directory, so that a CLI opened on another data directory can say which one a running server holds.
 */
const POINTERS = join(tmpdir(), `prauth-servers-${userInfo().uid}`);

export interface RunningServer {
  pid: number;
  dataDir: string;
  url: string;
}

/** The live servers on this machine (stale pointers of dead processes are removed). */
export function runningServers(): RunningServer[] {
  let names: string[];
  try {
    names = readdirSync(POINTERS);
  } catch {
    return [];
  }
  const out: RunningServer[] = [];
  for (const n of names.filter((x) => x.endsWith('.json'))) {
    try {
      const p = JSON.parse(readFileSync(join(POINTERS, n), 'utf8')) as RunningServer;
      if (alive(p.pid)) out.push(p);
      else unlinkSync(join(POINTERS, n));
    } catch {
      /* unreadable or raced: skip */
    }
  }
  return out;
}

export interface LockInfo {
  pid: number;
  holder: 'server' | 'cli';
  startedAt: string;
  /** Set by a server once it listens. */
  adminUrl?: string;
  operatorToken?: string;
  /** SHA-256 fingerprint of the server's TLS certificate when it speaks HTTPS: the CLI pins it. */
  tlsFingerprint256?: string;
}

export class DataDirBusyError extends Error {
  constructor(readonly info: LockInfo) {
    super(`the data directory is in use by a ${info.holder} (pid ${info.pid})`);
    this.name = 'DataDirBusyError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockPath(dataDir: string): string {
  return join(dataDir, 'prauth.lock');
}

/** The live holder of the lock, or undefined (a lock left by a dead process counts as free). */
export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
    return alive(info.pid) && info.pid !== process.pid ? info : undefined;
  } catch {
    return undefined;
  }
}

export interface HeldLock {
  info: LockInfo;
  /** Rewrites the lock with the server's admin address once it is known. */
  publish(adminUrl: string, operatorToken: string, tlsFingerprint256?: string): void;
  release(): void;
}

export function acquireLock(dataDir: string, holder: LockInfo['holder']): HeldLock {
  mkdirSync(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  const info: LockInfo = { pid: process.pid, holder, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeFileSync(fd, JSON.stringify(info));
      closeSync(fd);
      let released = false;
      return {
        info,
        publish(adminUrl, operatorToken, tlsFingerprint256) {
          Object.assign(info, { adminUrl, operatorToken, ...(tlsFingerprint256 ? { tlsFingerprint256 } : {}) });
          writeFileSync(path, JSON.stringify(info), { mode: 0o600 });
          if (holder === 'server') {
            try {
              mkdirSync(POINTERS, { recursive: true, mode: 0o700 });
              const pointer: RunningServer = { pid: process.pid, dataDir: resolve(dataDir), url: adminUrl };
              writeFileSync(join(POINTERS, `${process.pid}.json`), JSON.stringify(pointer), { mode: 0o600 });
            } catch {
              /* the pointer is a convenience for the CLI's warning; the lock is what counts */
            }
          }
        },
        release() {
          if (released) return;
          released = true;
          try {
            unlinkSync(join(POINTERS, `${process.pid}.json`));
          } catch {
            /* never written */
          }
          try {
            const current = JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
            if (current.pid === process.pid) unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const current = readLock(dataDir);
      if (current) throw new DataDirBusyError(current);
      // Stale lock from a process that died: remove and try once more.
      try {
        unlinkSync(path);
      } catch {
        /* raced with another remover */
      }
    }
  }
  throw new Error(`could not acquire ${path}`);
}
