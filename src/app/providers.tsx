import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppConfigProvider, type AppConfig } from './app-config.tsx';

interface AppProvidersProps {
  queryClient: QueryClient;
  config: AppConfig;
  children: ReactNode;
}

/** Everything a page may rely on, in one place so tests mount exactly what the app mounts. */
export function AppProviders({ queryClient, config, children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <AppConfigProvider value={config}>{children}</AppConfigProvider>
    </QueryClientProvider>
  );
}
