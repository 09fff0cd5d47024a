/**
 * Why the server could not listen, said as what to change: the port is taken,
 * needs privileges, or the host is not this machine's.
 */

/** A start-up failure whose message says what to fix (printed as one line by the command). */
export class ListenError extends Error {
  /** The system's code: EADDRINUSE, EACCES, EADDRNOTAVAIL, ENOTFOUND... */
  readonly code: string | undefined;

  constructor(message: string, cause: NodeJS.ErrnoException) {
    super(message, { cause });
    this.name = 'ListenError';
    this.code = cause.code;
  }
}

/**
 * @example listenError(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }), '127.0.0.1', 8080).message
 * // '127.0.0.1:8080 is in use (another dialect-proxy?): stop that process, or choose another port with --port N'
 */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): ListenError {
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new ListenError(
        `${address} is in use (another dialect-proxy?): stop that process, or choose another port with --port N`,
        error,
      );
    case 'EACCES':
      return new ListenError(
        `no permission to listen on ${address} (ports below 1024 need privileges): choose another port with --port N`,
        error,
      );
    case 'EADDRNOTAVAIL':
      return new ListenError(`cannot listen on ${address}: ${host} is not an address of this machine (--host, or server.host)`, error);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ListenError(`cannot listen on ${address}: no host named ${host} (--host, or server.host)`, error);
    default:
      return new ListenError(`cannot listen on ${address}: ${error.message}`, error);
  }
}
