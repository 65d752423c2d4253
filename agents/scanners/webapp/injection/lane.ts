// The injection probes' requests go through one lane, which bounds how many are in flight at once and
// keeps timing measurements clean: a request queued behind our own slow probe on a busy or
// single-threaded server would look delayed. Ordinary requests share the lane (up to `width` at once); a
// timed request has it to itself (a readers-writer lock, writers first).
export class TimingLane {
  private readers = 0;
  private writing = false;
  private readonly waiting: { exclusive: boolean; wake: () => void }[] = [];

  constructor(private readonly width = 6) {}

  async shared<T>(work: () => Promise<T>): Promise<T> {
    if (this.writing || this.waiting.length > 0 || this.readers >= this.width) {
      await new Promise<void>((wake) => this.waiting.push({ exclusive: false, wake }));
    } else {
      this.readers++;
    }
    try {
      return await work();
    } finally {
      this.readers--;
      this.next();
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.writing || this.readers > 0 || this.waiting.length > 0) {
      await new Promise<void>((wake) => this.waiting.push({ exclusive: true, wake }));
    } else {
      this.writing = true;
    }
    try {
      return await work();
    } finally {
      this.writing = false;
      this.next();
    }
  }

  /** Hands the lane on in arrival order: to an exclusive waiter once it is empty, else to shared ones. */
  private next(): void {
    while (!this.writing && this.waiting.length > 0) {
      const head = this.waiting[0]!;
      if (head.exclusive) {
        if (this.readers === 0) {
          this.writing = true;
          this.waiting.shift();
          head.wake();
        }
        return;
      }
      if (this.readers >= this.width) {
        return;
      }
      this.readers++;
      this.waiting.shift();
      head.wake();
    }
  }
}
