export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
export const PORTAL_HOME: string[];
export const CONSOLE: string[];
export function readManifest(dist: string): Manifest;
export function chunkOf(manifest: Manifest, key: string): ManifestChunk | undefined;
export function closure(manifest: Manifest, keys: string[], seen?: Set<string>): Set<string>;
export function portalFirstLoad(manifest: Manifest): Set<string>;
