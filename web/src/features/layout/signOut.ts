/** Logging out from the user menu (spec seed 000 sections 4 and 8): the session's logout, plus the tabs. */
import type { QueryClient } from '@tanstack/react-query';
import { logout } from '@/app/effects';
import { logoutCall } from '@/lib/api/session';
import { tabStore } from './tabs/tabStore';

export { failureText } from '@/app/effects';

/** Ends the session and drops the tabs; resolves with the failure's text when the call failed. */
export async function signOut(queryClient: QueryClient, call: () => Promise<void> = logoutCall): Promise<string | null> {
  const failure = await logout(queryClient, call);
  tabStore.clear();
  return failure;
}
