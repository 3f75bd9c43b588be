import { createContext, useContext } from 'react';
import type { AppConfig } from './config';

export const ConfigContext = createContext<AppConfig | null>(null);

/** The merged configuration of the start-up. */
export function useConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside of ConfigContext');
  return config;
}
