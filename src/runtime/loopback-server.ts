/** A server of the proxy's own on 127.0.0.1 (the warm-up's, `translate --responses`' replay): started on a free port, closed at once. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Listens on a free port on 127.0.0.1, this process's own: exclusive, as in a `--workers` process a port 0
 * would be the primary's, shared with (and its connections dealt among) every worker.
 */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Closes it now, open connections included. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
