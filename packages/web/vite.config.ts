import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Writes dist/build.json, the second descriptor of the start-up (version and build date). */
function buildDescriptor(): Plugin {
  return {
    name: 'portico-build-json',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'build.json',
        source: `${JSON.stringify({ version: pkg.version, date: new Date().toISOString() }, null, 2)}\n`,
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), buildDescriptor()],
  base: '/',
  build: {
    target: 'es2022',
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    reportCompressedSize: false,
  },
  server: { port: 8084 },
});
