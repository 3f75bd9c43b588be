import type { AppConfig } from '../shared/config/config';
import { configureHttp } from '../shared/http';
import { queryClient } from '../shared/lib/query-client';
import { reloadCounter, unavailable } from '../shared/lib/page-state';
import { dropUser } from '../shared/session/session-actions';
import { appRouter } from './router';

/** Plugs the error catalogue into the router, the toasts and the session. */
export function wireHttp(config: AppConfig): void {
  configureHttp(config.baseURL, {
    // Toasts (and their library) load with the first one.
    notify: (notice) => void import('../shared/ui/toasts').then(({ notifyError }) => notifyError(notice)),
    currentLocation: () => appRouter().state.location,
    goTo: (path) => void appRouter().navigate(path),
    dropUser,
    showUnavailable: (text) => unavailable.set({ text }),
    reloadState: () => {
      // Fresh server state first, then the page mounts again from it (forms start over).
      void queryClient
        .refetchQueries({ type: 'active' })
        .then(() => reloadCounter.set(reloadCounter.get() + 1));
    },
  });
}
