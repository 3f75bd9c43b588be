import { useLocalStorage } from '@mantine/hooks';
import type { StorageKey } from './storage';
import { prefixed } from './storage';

/** A preference kept in local storage under the product's prefix, shared by every component using it. */
export function useStoredPreference<T>(key: StorageKey, defaultValue: T) {
  return useLocalStorage<T>({ key: prefixed(key), defaultValue, getInitialValueInEffect: false });
}
