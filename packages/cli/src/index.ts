export { main } from './main.js';
export { loadConfig } from './config.js';
export type { PorticoConfig } from './config.js';
