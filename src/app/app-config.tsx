/**
 * Runtime configuration the shell needs, e.g. which upstream the proxy talks to.
 * Fed later from the proxy's `/api/local/config`; until then `main.tsx` provides `{ mode: undefined }`.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { ServiceMode } from '../components/ModeBanner.tsx';

export interface AppConfig {
  mode: ServiceMode | undefined;
}

const AppConfigContext = createContext<AppConfig>({ mode: undefined });

export function AppConfigProvider({ value, children }: { value: AppConfig; children: ReactNode }) {
  return <AppConfigContext value={value}>{children}</AppConfigContext>;
}

export function useAppConfig(): AppConfig {
  return useContext(AppConfigContext);
}
