export const DEFAULT_CHROMIUM: string;
export const INSTALL_COMMANDS: [string, string[]][];

export interface ChromiumEnvironment {
  /** PORTICO_CHROMIUM, when set. */
  chromiumPath: string | undefined;
  isExecutable(file: string): boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}

export type ChromiumDecision =
  | { action: 'ready' | 'install'; chromium: string; message?: undefined }
  | { action: 'fail'; message: string; chromium?: undefined };

export function decide(env: ChromiumEnvironment): ChromiumDecision;
export function machine(): ChromiumEnvironment;
