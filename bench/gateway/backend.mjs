// The backend of the gateway benchmark: a small JSON answer, keep-alive.
import http from 'node:http';
const body = Buffer.from(JSON.stringify({ ok: true, items: [1, 2, 3] }));
http
  .createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
