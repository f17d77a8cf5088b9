/**
 * Runtime configuration the shell needs: which upstream the proxy talks to and the monthly budget.
 * `AppProviders` feeds it from the proxy's `/api/local/config` (see `proxy-config.ts`).
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { ServiceMode } from '../components/ModeBanner.tsx';

export interface AppConfig {
  mode: ServiceMode | undefined;
  /** `MONTHLY_BUDGET_USD` when the proxy has one */
  budgetUsd?: number | undefined;
  /**
   * The proxy cuts profile summaries (its profile cache is on): a verdict asked beside a summary
   * then joins the summary's one service call. Unknown (undefined) is treated as no.
   */
  profileSummaries?: boolean | undefined;
}

const AppConfigContext = createContext<AppConfig>({ mode: undefined });

export function AppConfigProvider({ value, children }: { value: AppConfig; children: ReactNode }) {
  return <AppConfigContext value={value}>{children}</AppConfigContext>;
}

export function useAppConfig(): AppConfig {
  return useContext(AppConfigContext);
}
