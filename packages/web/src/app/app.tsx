import { MantineProvider } from '@mantine/core';
import type { MantineThemeOverride } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import { RouterProvider } from 'react-router';
import type { AppConfig } from '../shared/config/config';
import { ConfigContext } from '../shared/config/config-context';
import { cssVariablesResolver } from '../shared/config/theme';
import { queryClient } from '../shared/lib/query-client';
import { useToastsDemanded } from '../shared/ui/toast-demand';
import { appRouter } from './router';

// The toasts' container loads with the first toast, outside the first page's critical path; toasts
// raised before it is there appear when it is.
const ToastContainer = lazy(async () => ({
  default: (await import('../shared/ui/toast-container')).ToastContainer,
}));

function Toasts() {
  const demanded = useToastsDemanded();
  return demanded ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null;
}

/** Both faces, once the start-up has the configuration and the theme. */
export function App({ config, theme }: { config: AppConfig; theme: MantineThemeOverride }) {
  return (
    <ConfigContext.Provider value={config}>
      <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
        <Toasts />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={appRouter()} />
        </QueryClientProvider>
      </MantineProvider>
    </ConfigContext.Provider>
  );
}
