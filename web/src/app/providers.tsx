import { BlueprintProvider } from '@blueprintjs/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '@/lib/http';
import { SlotsProvider } from './slots';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // The client has already told the user; repeating a refused call will not help.
        retry: (count, error) => !(error instanceof ApiError) && count < 2,
      },
    },
  });
}

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <BlueprintProvider>
      <QueryClientProvider client={queryClient}>
        <SlotsProvider>{children}</SlotsProvider>
      </QueryClientProvider>
    </BlueprintProvider>
  );
}
