// A local OTLP/HTTP receiver for the tracing rows of the gateway benchmark: reads each export and
// answers 200 (an empty ExportTraceServiceResponse), counting spans' bytes only.
import http from 'node:http';

let exports = 0;
let bytes = 0;
http
  .createServer((req, res) => {
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => {
      exports += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => {
  console.error(`otlp sink: ${exports} exports, ${bytes} bytes`);
  process.exit(0);
});
