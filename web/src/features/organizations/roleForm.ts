import type { TFunction } from 'i18next';
import { z } from 'zod';
import { ROLE_LIMITS, type PermissionRoute } from './api/roles';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';

const length = (v: string) => [...v].length;

/** The role editor's fields, checked as the server checks them, in the user's language. */
export function roleFormSchema(t: TFunction) {
  return z.object({
    roleName: z.string().trim()
      .refine((v) => length(v) > 0, t('roles.error.nameRequired'))
      .refine((v) => length(v) <= ROLE_LIMITS.name, t('roles.error.nameLength', { max: ROLE_LIMITS.name }))
      .refine((v) => !hasRefusedCharacters(v), t('roles.error.nameCharacters')),
    description: z.string().trim()
      .refine((v) => length(v) <= ROLE_LIMITS.description, t('roles.error.descriptionLength', { max: ROLE_LIMITS.description }))
      .refine((v) => !hasRefusedCharacters(v), t('roles.error.descriptionCharacters')),
    permissions: z.array(z.string()),
  });
}
export type RoleForm = z.infer<ReturnType<typeof roleFormSchema>>;

/** A route's box in the tree: all of it held, some, or none. */
export type TreeState = 'checked' | 'partial' | 'none';

const namesOf = (route: PermissionRoute) => [route.route, ...route.actions];

export function routeState(route: PermissionRoute, held: ReadonlySet<string>): TreeState {
  if (route.fixed) return 'checked';
  const names = namesOf(route);
  const count = names.filter((n) => held.has(n)).length;
  return count === names.length ? 'checked' : count === 0 ? 'none' : 'partial';
}

/** Checking a route checks all its actions; unchecking a fully checked one clears it. */
export function toggleRoute(route: PermissionRoute, held: readonly string[]): string[] {
  if (route.fixed) return [...held];
  const names = new Set(namesOf(route));
  const rest = held.filter((n) => !names.has(n));
  return routeState(route, new Set(held)) === 'checked' ? rest : [...rest, ...names];
}

/** An action brings its route along (the server adds it too); unchecking it leaves the route. */
export function toggleAction(route: PermissionRoute, action: string, held: readonly string[]): string[] {
  if (route.fixed) return [...held];
  if (held.includes(action)) return held.filter((n) => n !== action);
  return [...new Set([...held, route.route, action])];
}

/** What is sent: the chosen names known to the tree, never the fixed baseline (the server adds it). */
export function chosenPermissions(tree: readonly PermissionRoute[], held: readonly string[]): string[] {
  const grantable = new Set(tree.filter((r) => !r.fixed).flatMap(namesOf));
  return [...new Set(held)].filter((n) => grantable.has(n)).sort();
}

/** `device.list:edit` → `edit`; the i18n key of a route (`device_list`): dots would nest keys. */
export const actionOf = (name: string) => name.slice(name.indexOf(':') + 1);
export const routeKey = (route: string) => route.replace(/\./g, '_');
