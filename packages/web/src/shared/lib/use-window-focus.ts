import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('focus', onChange);
  window.addEventListener('blur', onChange);
  document.addEventListener('visibilitychange', onChange);
  return () => {
    window.removeEventListener('focus', onChange);
    window.removeEventListener('blur', onChange);
    document.removeEventListener('visibilitychange', onChange);
  };
};

/** True while the browser window has the focus (polling runs only then). */
export function useWindowFocus(): boolean {
  return useSyncExternalStore(subscribe, () => document.hasFocus() && document.visibilityState === 'visible');
}
