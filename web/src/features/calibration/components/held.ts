import { useQuery } from '@tanstack/react-query';
import { fetchAccountInfo } from '@/lib/api/accountInfo';
import { signedIn } from '@/lib/api/calibration';

/**
 * Whether the logged-in account holds `permission` (false without a login or until known). The
 * calibration pages are public, so the guard loads no permissions; a call refused with 403 would
 * end the session, so a call that needs one is made only when it is held.
 */
export function useHeld(permission: string): boolean {
  const info = useQuery({ queryKey: ['calibration', 'account'], queryFn: fetchAccountInfo, enabled: signedIn(),
    staleTime: 300_000 });
  return info.data?.permissionRoutes.includes(permission) ?? false;
}
