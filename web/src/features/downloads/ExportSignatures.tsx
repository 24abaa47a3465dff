import { useQuery } from '@tanstack/react-query';
import { SignatureList } from '@/components/Signatures';
import type { ExportRecord } from '@/lib/api/exports';
import { FDA_READ, fdaKeys, fetchRecordSignatures } from '@/lib/api/fda';
import { usePermissions } from '@/lib/permissions';

/**
 * A readings export's electronic signatures (FDA mode: its author's, meaning authored), read for
 * whoever may read signatures. What a signature binds (the request: device, period, format, author)
 * never changes, so they are read once per export; a device list is never signed, and an export
 * whose device is gone answers 404, which is no failure to show.
 */
function useExportSignatures(record: ExportRecord) {
  const enabled = usePermissions().has(FDA_READ) && record.kind === 'readings';
  return useQuery({
    queryKey: fdaKeys.record('export', record.id),
    queryFn: () => fetchRecordSignatures('export', record.id, { silent: true }),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}

/** The export's signatures' manifestations (printed name, date and time in the signer's zone, meaning); nothing when unsigned. */
export function ExportSignatures({ record }: { record: ExportRecord }) {
  const signatures = useExportSignatures(record);
  return <SignatureList signatures={signatures.data ?? []} />;
}
