// Thrown when a scan must end early: the customer stopped it, or it used up its request budget.
export class ScanStoppedError extends Error {
  constructor(reason: 'aborted' | 'budget') {
    super(reason === 'aborted' ? 'scan stopped' : 'request budget exhausted');
    this.name = 'ScanStoppedError';
  }
}
