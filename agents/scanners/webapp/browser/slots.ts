// A few turns at once, a bounded queue for the rest: what the browser router sends a page's requests
// through, so a page firing hundreds at once costs a queue entry each, not a connection and a body each.

export class Slots {
  private active = 0;
  private readonly waiting: ((granted: boolean) => void)[] = [];

  constructor(
    private readonly size: number,
    private readonly queue: number,
  ) {}

  /**
   * Waits for a turn, at most `waitMs`; resolves with the function that gives it back, or null when the
   * queue is full or the wait ran out.
   */
  acquire(waitMs: number): Promise<(() => void) | null> {
    if (this.active < this.size) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.queue) {
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      const wake = (granted: boolean) => {
        clearTimeout(timer);
        if (!granted) {
          resolve(null);
          return;
        }
        this.active += 1;
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) {
          this.waiting.splice(at, 1);
        }
        resolve(null);
      }, waitMs);
      this.waiting.push(wake);
    });
  }

  /** Gives up on every request still waiting (they are refused): the page they came from is gone. */
  close(): void {
    for (const wake of this.waiting.splice(0)) {
      wake(false);
    }
  }

  private releaser(): () => void {
    let given = false;
    return () => {
      if (given) {
        return;
      }
      given = true;
      this.active -= 1;
      this.waiting.shift()?.(true);
    };
  }
}
