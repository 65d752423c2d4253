// A slow client's upload: the body goes out in pieces, as a browser or curl streams a large one, waiting for
// 'drain' whenever the socket's buffer is full, then the request ends.
import type { ClientRequest } from 'node:http';

export function writeInPieces(req: ClientRequest, chunk: Buffer, count: number): void {
  let sent = 0;
  const writeMore = () => {
    while (sent < count) {
      sent++;
      if (!req.write(chunk)) {
        req.once('drain', writeMore);
        return;
      }
    }
    req.end();
  };
  writeMore();
}
