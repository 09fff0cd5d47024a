/**
 * The standalone server's bounds on what one connection, and one address, may
 * hold: an attacker with no key could otherwise pipeline thousands of requests
 * on a socket it never reads (each answered, its bytes queued in memory), or
 * fill every connection slot with idle keep-alive sockets.
 *
 * - a connection with more than `maxPipelinedRequests` requests awaiting their
 *   answers is closed (HTTP/1.1 lets a client resend what was not answered);
 * - when `maxConnections`, or one address's `maxConnectionsPerAddress`, is
 *   reached, a new connection takes the place of an idle one (no request in
 *   flight), one that never showed an API key first, oldest first; only when
 *   none is idle is the new one refused.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  maxConnections: number;
  /** 0: no bound per address. */
  maxConnectionsPerAddress: number;
  maxPipelinedRequests: number;
}

interface Held {
  address: string;
  /** Requests read on this connection whose answers are not finished. */
  inFlight: number;
  /** A request on it carried a valid API key: shed after the anonymous ones. */
  authenticated: boolean;
}

export class ConnectionGuard {
  /** In arrival order (a Map keeps it), so the oldest idle connection is found first. */
  private readonly held = new Map<Socket, Held>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: ConnectionLimits) {}

  /** Installs the guard: Node's own `maxConnections` is left unset, since it refuses before anything could be shed. */
  attach(server: Server): void {
    server.maxConnections = Infinity;
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  /** Counts a request on its connection; false (the connection is being closed) past the pipelining bound. */
  enter(req: IncomingMessage, res: ServerResponse): boolean {
    const held = this.held.get(req.socket);
    if (!held) return true; // a socket the guard never saw (a test's own server)
    if (++held.inFlight > this.limits.maxPipelinedRequests) {
      req.socket.destroy();
      return false;
    }
    // A response emits 'close' once, whether it finished or its connection was cut.
    res.once('close', () => held.inFlight--);
    return true;
  }

  /** Whether the connection has already shown a valid key (then it need not be checked again). */
  isAuthenticated(socket: Socket): boolean {
    return this.held.get(socket)?.authenticated ?? false;
  }

  markAuthenticated(socket: Socket): void {
    const held = this.held.get(socket);
    if (held) held.authenticated = true;
  }

  /** Connections held now, for tests and the log. */
  get size(): number {
    return this.held.size;
  }

  private admit(socket: Socket): void {
    const address = addressKey(socket.remoteAddress);
    const { maxConnections, maxConnectionsPerAddress } = this.limits;
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (maxConnectionsPerAddress > 0 && fromAddress >= maxConnectionsPerAddress && !this.shed(address)) {
      socket.destroy();
      return;
    }
    if (this.held.size >= maxConnections && !this.shed()) {
      socket.destroy();
      return;
    }
    this.held.set(socket, { address, inFlight: 0, authenticated: false });
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    socket.once('close', () => {
      if (!this.held.delete(socket)) return;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left === 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
    });
  }

  /** Closes the oldest idle connection (of `address` when given), an anonymous one before a keyed one. */
  private shed(address?: string): boolean {
    let keyed: Socket | undefined;
    for (const [socket, held] of this.held) {
      if (held.inFlight > 0 || (address !== undefined && held.address !== address)) continue;
      if (!held.authenticated) return this.close(socket);
      keyed ??= socket;
    }
    return keyed !== undefined && this.close(keyed);
  }

  private close(socket: Socket): true {
    const held = this.held.get(socket) as Held;
    // Counted out now, not at 'close' (a tick later), so the new connection's place is free at once.
    this.held.delete(socket);
    const left = (this.perAddress.get(held.address) ?? 1) - 1;
    if (left === 0) this.perAddress.delete(held.address);
    else this.perAddress.set(held.address, left);
    socket.destroy();
    return true;
  }
}

/**
 * What counts as one address: an IPv4 address (an IPv4-mapped IPv6 one included) as it is, an IPv6
 * address by its /64 (one host is given a whole /64, and could otherwise use a new address per connection).
 */
export function addressKey(remote: string | undefined): string {
  if (!remote) return '';
  if (remote.startsWith('::ffff:') && remote.includes('.')) return remote.slice(7);
  if (!remote.includes(':')) return remote;
  const [head, tail = ''] = remote.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = remote.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
