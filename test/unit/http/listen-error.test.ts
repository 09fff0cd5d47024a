/** Why the server cannot listen, as what to change. */
import { listenError, ListenError } from '../../../src/http/listen-error.js';

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

test.each([
  ['EADDRINUSE', '127.0.0.1', '127.0.0.1:8080 is in use (another dialect-proxy?): stop that process, or choose another port with --port N'],
  [
    'EACCES',
    '127.0.0.1',
    'no permission to listen on 127.0.0.1:8080 (ports below 1024 need privileges): choose another port with --port N',
  ],
  ['EADDRNOTAVAIL', '10.9.9.9', 'cannot listen on 10.9.9.9:8080: 10.9.9.9 is not an address of this machine (--host, or server.host)'],
  ['ENOTFOUND', 'nohost', 'cannot listen on nohost:8080: no host named nohost (--host, or server.host)'],
  ['EADDRINUSE', '::1', '[::1]:8080 is in use (another dialect-proxy?): stop that process, or choose another port with --port N'],
])('%s on %s', (code, host, message) => {
  const error = listenError(failure(code), host, 8080);
  expect(error).toBeInstanceOf(ListenError);
  expect({ message: error.message, code: error.code }).toEqual({ message, code });
});

test('another failure keeps the system message', () => {
  expect(listenError(failure('EMFILE'), '127.0.0.1', 80).message).toBe('cannot listen on 127.0.0.1:80: listen EMFILE');
});
