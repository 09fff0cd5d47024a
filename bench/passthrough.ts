/**
 * Bench target, the true floor of any proxy: a bare `node:http` pass-through.
 * Each request goes to the same path on the upstream over keep-alive
 * connections, bytes piped both ways, nothing parsed or translated; no
 * framework. Prints its port on stdout.
 *
 * `passthrough.js <upstreamPort>`
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstreamPort = Number(process.argv[2]);
const agent = new http.Agent({ keepAlive: true });

/** The headers minus the hop-by-hop ones, which belong to each connection, not to the message. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

const server = http.createServer((req, res) => {
  const upstream = http.request(
    {
      host: '127.0.0.1',
      port: upstreamPort,
      path: req.url,
      method: req.method,
      headers: { ...endToEnd(req.headers), host: `127.0.0.1:${upstreamPort}` },
      agent,
    },
    (response) => {
      res.writeHead(response.statusCode ?? 502, endToEnd(response.headers));
      response.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (res.headersSent) res.destroy(error);
    else res.writeHead(502, { 'content-type': 'text/plain' }).end(error.message);
  });
  // The caller left before the end: stop the upstream's work too.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(String((server.address() as AddressInfo).port));
});
