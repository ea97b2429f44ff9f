import { QueryClient, QueryClientProvider, type QueryObserverOptions } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ToastProvider } from "../components/ui/toast";
import { SessionBootstrap } from "../lib/session";
import { ThemeProvider } from "../lib/theme";
import { ApiError } from "../lib/api-client";

export { VERSION_QUERY_KEY } from "../config/env";

export function createQueryClient(overrides: Pick<QueryObserverOptions, "retry"> = {}) {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Also what keeps data from the server render fresh through hydration (no second fetch).
        staleTime: 30_000,
        // Retry network blips and server errors, never a 4xx: the answer will not change.
        retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
        ...overrides,
      },
    },
  });
}

/** The app's providers; the query client is given when the page was rendered on the server (main.tsx, ssr.tsx). */
export function AppProviders({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <SessionBootstrap />
        <ToastProvider>{children}</ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
