/** Test support of the management API: an app on a fresh database, fixtures, and HTTP helpers. */
export * from './app.js';
export * from './fixtures.js';
export * from './http.js';
export * from './smtp.js';
export * from './receiver.js';
export * from './proxy.js';
