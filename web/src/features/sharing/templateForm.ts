import type { TFunction } from 'i18next';
import { z } from 'zod';
import { ELEMENT_CODES, type ElementCode, type ElementPermission } from '@/lib/access';
import { SHARING_LIMITS } from '@/lib/api/sharing';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';

/** One element's row of the template grid. */
export interface ElementGrant {
  view: boolean;
  operate: boolean;
}
export type Grid = Record<ElementCode, ElementGrant>;

/** The template's name, checked as the server checks it, in the user's language. */
export function templateFormSchema(t: TFunction) {
  return z.object({
    name: z.string().trim()
      .refine((v) => [...v].length >= 1 && [...v].length <= SHARING_LIMITS.templateName,
        t('error.nameLength', { max: SHARING_LIMITS.templateName }))
      .refine((v) => !hasRefusedCharacters(v), t('error.nameCharacters')),
  });
}
export type TemplateForm = z.infer<ReturnType<typeof templateFormSchema>>;

/** The grid of a template's permissions; an element it does not name is neither seen nor operated. */
export function gridOf(permissions: readonly ElementPermission[]): Grid {
  const grid = {} as Grid;
  for (const code of ELEMENT_CODES) {
    const entry = permissions.find((item) => item.code === code);
    const operate = entry?.setStatus === 1;
    grid[code] = { view: entry?.viewStatus === 1 || operate, operate };
  }
  return grid;
}

/**
 * A tick of the grid: operating an element means seeing it, so ticking Operable ticks Visible, and
 * unticking Visible unticks Operable (the server normalises the same way).
 */
export function tick(grid: Grid, code: ElementCode, column: keyof ElementGrant, on: boolean): Grid {
  const row = grid[code];
  const next = column === 'operate'
    ? { view: on ? true : row.view, operate: on }
    : { view: on, operate: on ? row.operate : false };
  return { ...grid, [code]: next };
}

/** The grid as the server takes it: every element, with both settings. */
export function permissionsOf(grid: Grid): ElementPermission[] {
  return ELEMENT_CODES.map((code) => ({ code, viewStatus: grid[code].view ? 1 : 0, setStatus: grid[code].operate ? 1 : 0 }));
}
