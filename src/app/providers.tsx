import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppConfigProvider, type AppConfig } from './app-config.tsx';
import { proxyConfigQuery } from './proxy-config.ts';

interface AppProvidersProps {
  queryClient: QueryClient;
  /**
   * Pins the configuration (tests). While its `mode` is unknown (or it is left out), the
   * configuration is read from the proxy's `/api/local/config`.
   */
  config?: AppConfig | undefined;
  children: ReactNode;
}

/** Everything a page may rely on, in one place so tests mount exactly what the app mounts. */
export function AppProviders({ queryClient, config, children }: AppProvidersProps) {
  const pinned = config?.mode === undefined ? undefined : config;
  return (
    <QueryClientProvider client={queryClient}>
      {pinned ? (
        <AppConfigProvider value={pinned}>{children}</AppConfigProvider>
      ) : (
        <ProxyAppConfig>{children}</ProxyAppConfig>
      )}
    </QueryClientProvider>
  );
}

/** Until the proxy answers (or when it cannot), the mode is unknown and no banner shows. */
function ProxyAppConfig({ children }: { children: ReactNode }) {
  const { data } = useQuery(proxyConfigQuery);
  return <AppConfigProvider value={data ?? { mode: undefined }}>{children}</AppConfigProvider>;
}
