/** The page sizes a list offers (its footer's select) and the one it starts with. */
export const PAGE_SIZES = [10, 20, 30, 40] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** A size asked for in a URL when the list offers it, else the default one. */
export function pageSizeOf(value: number): number {
  return (PAGE_SIZES as readonly number[]).includes(value) ? value : DEFAULT_PAGE_SIZE;
}
