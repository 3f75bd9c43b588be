export * from './errors.js';
export * from './fetch.js';
export * from './policy.js';
