// The Node peer: fast-gateway 3.4.7 with a header check (the closest it has to an API key plan).
import gateway from 'fast-gateway';
const server = gateway({
  middlewares: [
    (req, res, next) => {
      if (req.headers['x-api-key'] !== process.env.KEY) {
        res.statusCode = 401;
        return res.end('{"message":"API Key is not valid"}');
      }
      return next();
    },
  ],
  routes: [{ prefix: '/bench', target: process.env.TARGET }],
});
server.start(Number(process.env.PORT), '127.0.0.1').then(() => process.send?.('ready'));
