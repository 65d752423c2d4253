// Bytes from a service shown in a banner or evidence: printable ASCII only, runs of anything else as one
// space, bounded.
export function printable(data: Buffer, max = 160): string {
  return data
    .toString('latin1')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim()
    .slice(0, max);
}
