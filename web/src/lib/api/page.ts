import { z } from 'zod';

/** A page of rows as every list call answers it (api-contract section 1: paging). */
export function pageOf<Row extends z.ZodTypeAny>(row: Row) {
  return z.object({
    start: z.number(),
    pageSize: z.number(),
    totalCount: z.number(),
    data: z.array(row),
  });
}
