// The baseline: the plainest proxy there is, node:http in front of an undici Pool.
import http from 'node:http';
import { Pool } from 'undici';
const pool = new Pool(process.env.TARGET, { connections: 128, pipelining: 1 });
http
  .createServer(async (req, res) => {
    try {
      const headers = { ...req.headers };
      delete headers.connection;
      delete headers.host;
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
      res.writeHead(up.statusCode, out);
      up.body.pipe(res);
    } catch {
      res.writeHead(502).end();
    }
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
