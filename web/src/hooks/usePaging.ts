import { useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '@/lib/paging';

/**
 * A list's page kept in the component: where it is, what its PagerFooter takes for a total
 * (another size starts again at page 1), and a way back to page 1 when a search changes.
 */
export function usePaging() {
  const [paging, setPaging] = useState({ start: 1, pageSize: DEFAULT_PAGE_SIZE as number });
  return {
    ...paging,
    footer: (total: number) => ({
      page: paging.start, pageSize: paging.pageSize, total,
      onChange: (start: number) => setPaging((current) => ({ ...current, start })),
      onPageSizeChange: (pageSize: number) => setPaging({ start: 1, pageSize }),
    }),
    restart: () => setPaging((current) => ({ ...current, start: 1 })),
  };
}
