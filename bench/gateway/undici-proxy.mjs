// The baseline: the plainest proxy there is, node:http in front of an undici Pool.
// With WITH_HEADERS=1 it also sends and answers the headers that the spec asks of Portico's gateway on
// every request (X-Forwarded-*, request and transaction ids) and under a rate limit (X-Rate-Limit-*),
// so that the cost of those headers alone (in the proxy, the backend and the load generator) shows.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
const pool = new Pool(process.env.TARGET, { connections: 128, pipelining: 1 });
const withHeaders = process.env.WITH_HEADERS === '1';
let remaining = 100_000_000;
http
  .createServer(async (req, res) => {
    try {
      const headers = { ...req.headers };
      delete headers.connection;
      delete headers.host;
      const id = withHeaders ? randomUUID() : '';
      if (withHeaders) {
        headers['x-forwarded-for'] = req.socket.remoteAddress;
        headers['x-forwarded-host'] = req.headers.host;
        headers['x-forwarded-proto'] = 'http';
        headers['x-forwarded-prefix'] = '/';
        headers['x-request-id'] = id;
        headers['x-transaction-id'] = id;
      }
      const up = await pool.request({
        path: req.url,
        method: req.method,
        headers,
        body: req.method === 'GET' ? undefined : req,
      });
      const out = { ...up.headers };
      delete out.connection;
      delete out['keep-alive'];
      delete out['transfer-encoding'];
      if (withHeaders) {
        out['x-rate-limit-limit'] = '100000000';
        out['x-rate-limit-remaining'] = String(--remaining);
        out['x-rate-limit-reset'] = String(Math.ceil(Date.now() / 1000) * 1000);
        out['x-request-id'] = id;
        out['x-transaction-id'] = id;
      }
      res.writeHead(up.statusCode, out);
      up.body.pipe(res);
    } catch {
      res.writeHead(502).end();
    }
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
