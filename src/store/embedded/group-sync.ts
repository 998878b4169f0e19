// Group commit for one data file: fsync runs on libuv's thread pool, not on the event loop, and every write that
// asks while an fsync is in flight shares the next one. A caller's promise resolves only after an fsync that
// started after its call has completed, so what it appended before calling is on disk (an acknowledged write
// survives kill -9 and power loss); concurrent writers pay one fsync between them instead of one each.
import { open } from 'node:fs/promises';

export class GroupSync {
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(private readonly filename: string) {}

  sync(): Promise<void> {
    if (!this.current) return this.start();
    // The fsync in flight may have begun before this caller's append: it waits for the following one.
    this.next ??= this.current.then(
      () => this.afterCurrent(),
      () => this.afterCurrent(),
    );
    return this.next;
  }

  private afterCurrent(): Promise<void> {
    this.next = undefined;
    return this.start();
  }

  private start(): Promise<void> {
    const run = this.fsync();
    this.current = run;
    const clear = (): void => {
      if (this.current === run) this.current = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  // Opened per fsync: compaction replaces the file (write a new one, rename), so a kept descriptor could name the
  // old one.
  private async fsync(): Promise<void> {
    const handle = await open(this.filename, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
