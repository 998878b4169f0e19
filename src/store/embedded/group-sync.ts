// Group commit for one data file: fsync runs on libuv's thread pool, not on the event loop, and every write that
// asks while an fsync is in flight shares the next one. A caller's promise resolves only after an fsync that
// started after its call has completed, so what it appended before calling is on disk (an acknowledged write
// survives kill -9 and power loss); concurrent writers pay one fsync between them instead of one each. The
// file's appends go through the same descriptor.
import { open, type FileHandle } from 'node:fs/promises';

export class GroupSync {
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private handle: Promise<FileHandle> | undefined;

  constructor(
    private readonly filename: string,
    private readonly mode = 0o600,
  ) {}

  /**
   * Appends to the file through the descriptor kept for fsync (nedb would open, write and close the file on every
   * write, one after the other on its queue). Durable only once a later sync() resolves.
   */
  async append(text: string): Promise<void> {
    const pending = this.descriptor();
    try {
      await (await pending).appendFile(text, 'utf8');
    } catch (err) {
      if (this.handle === pending) this.handle = undefined;
      throw err;
    }
  }

  private descriptor(): Promise<FileHandle> {
    return (this.handle ??= open(this.filename, 'a', this.mode));
  }

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

  /**
   * The file was replaced (nedb's compaction writes a new one, fsyncs it and renames it over the old): the next fsync
   * opens the new file. Called when the datastore says its compaction is done, before any later append.
   */
  reopen(): void {
    const old = this.handle;
    this.handle = undefined;
    old?.then((h) => h.close()).catch(() => undefined);
  }

  // One descriptor (append mode) kept open between writes and fsyncs: opening and closing the file per write or fsync
  // cost more than the write itself.
  private async fsync(): Promise<void> {
    const pending = this.descriptor();
    try {
      await (await pending).sync();
    } catch (err) {
      if (this.handle === pending) this.handle = undefined; // a failed open or a closed descriptor: open again next time
      throw err;
    }
  }
}
