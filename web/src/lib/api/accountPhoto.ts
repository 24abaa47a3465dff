/**
 * The account picture is served only with the owner's token, which an <img> cannot send: it is
 * fetched as a blob and shown from an object URL, released when the address changes.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from '@/lib/http';

/** The picture of `address` (accountInfo's accountPhoto, under /api), or null while there is none. */
export function useAccountPhoto(address: string | null | undefined): string | null {
  const path = address?.startsWith('/api/') ? address.slice('/api'.length) : null;
  const query = useQuery({
    queryKey: ['accountPhoto', path],
    queryFn: async () => (await api.download(path!, { silent: true })).blob,
    enabled: path !== null,
    staleTime: Infinity,
    retry: false,
  });
  const url = useMemo(() => (query.data ? URL.createObjectURL(query.data) : null), [query.data]);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  return url;
}
