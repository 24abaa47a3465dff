import { useParams, useSearchParams } from 'react-router';
import type { Ref } from '@/lib/api/calibration';

/** An application named in a page's address: `?id=` (an account's), `?number=`, or the detail path's part (either). */
export function useRefFromAddress(): Ref | null {
  const [params] = useSearchParams();
  const { applicationId } = useParams();
  const raw = applicationId ?? params.get('id') ?? params.get('number');
  if (!raw) return null;
  return /^\d+$/.test(raw) ? { applicationId: Number(raw) } : { applicationNumber: raw.toUpperCase() };
}

/** The address part that names an application: its id when the caller has one, else its number. */
export const addressOf = (a: { applicationId: number | null; applicationNumber: string }): string =>
  a.applicationId ? String(a.applicationId) : a.applicationNumber;

export const query = (a: { applicationId: number | null; applicationNumber: string }): string =>
  a.applicationId ? `id=${a.applicationId}` : `number=${encodeURIComponent(a.applicationNumber)}`;
