import { describe, expect, it } from 'vitest';
import { endpointForSpan, routeOf, serverOf } from './request-trace.js';

describe('what a call span says of its server, route and endpoint', () => {
  it('splits a Host header into address and port, and answers the same for the same host', () => {
    expect(serverOf('api.example.com:8082')).toMatchObject({ address: 'api.example.com', port: 8082 });
    expect(serverOf('api.example.com')).toMatchObject({ address: 'api.example.com', port: undefined });
    expect(serverOf('[::1]:8082')).toMatchObject({ address: '[::1]', port: 8082 });
    expect(serverOf('[::1]')).toMatchObject({ address: '[::1]', port: undefined });
    // A port that is not one is left out, the address kept.
    expect(serverOf('api.example.com:http')).toMatchObject({ address: 'api.example.com', port: undefined });
    expect(serverOf('api.example.com:99999')).toMatchObject({ address: 'api.example.com', port: undefined });
    expect(serverOf('')).toMatchObject({ address: '', port: undefined });
    // The last host is remembered, and a different one is not answered from it.
    const first = serverOf('a.example:1');
    expect(serverOf('a.example:1')).toBe(first);
    expect(serverOf('b.example:2')).toMatchObject({ address: 'b.example', port: 2 });
  });

  it('names the route by context path and policy path, never the raw path', () => {
    expect(routeOf('/orders/', '/items/:id')).toBe('/orders/items/:id');
    expect(routeOf('/orders', undefined)).toBe('/orders');
    expect(routeOf('/', '/')).toBe('/');
    expect(routeOf('/', 'items')).toBe('/items');
  });

  it('keeps credentials and the query out of an endpoint', () => {
    expect(endpointForSpan(new URL('http://user:secret@backend:9000/v1/items?token=x'))).toBe(
      'http://backend:9000/v1/items',
    );
  });
});
