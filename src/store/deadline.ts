// A bound on opening the store, for the service's start and the CLI alike. A MongoDB-compatible server that accepts
// connections but never answers a write (FerretDB 1.24's SQLite backend does this after a client is killed
// mid-write: reads still answer, every write waits) would otherwise leave the service silently "starting" for ever;
// it fails instead, saying which step and for how long, and the operator sees it in the exit status and on stderr.

export class StoreTimeoutError extends Error {
  constructor(step: string, ms: number) {
    super(`the store did not answer within ${Math.round(ms / 1000)} s while ${step} (STORE_OPEN_TIMEOUT_SECONDS); check that the MongoDB server accepts writes`);
    this.name = 'StoreTimeoutError';
  }
}

/** `work`, or a StoreTimeoutError after `ms` (the timer never keeps the process alive). */
export function withDeadline<T>(work: Promise<T>, ms: number, step: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(step, ms)), ms);
    timer.unref();
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
