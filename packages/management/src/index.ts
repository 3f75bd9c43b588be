export * from './app.js';
export * from './context.js';
