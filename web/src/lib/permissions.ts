/**
 * The button directives of spec seed 000 section 6, as pure rules and hooks over the session.
 *
 * Permission names are the server's (`src/core/permissions/catalogue.py`): a route permission is a
 * dotted name (`device.list`), a button permission is a route permission plus an action
 * (`device.list:add`). Components that apply these rules live in `@/components/Permit`.
 */
import { useSession } from './session';

/** The actions a button permission may name. */
export const ACTIONS = ['add', 'delete', 'edit', 'query', 'detail', 'enable', 'disable', 'import', 'export'] as const;
export type Action = (typeof ACTIONS)[number];

/** How a guarded element is drawn: as usual, greyed out (shown but unusable), or not at all. */
export type Visibility = 'shown' | 'greyed' | 'hidden';

export type Held = ReadonlySet<string>;

/** One device-level permission of a device (spec seed 000 section 3). */
export interface DevicePermissionEntry {
  permissionCode: string;
  setStatus: number;
  viewStatus: number;
}

export function isAction(value: string): value is Action {
  return (ACTIONS as readonly string[]).includes(value);
}

/** `device.list` + `add` → `device.list:add`. */
export function buttonPermission(route: string, action: Action): string {
  return `${route}:${action}`;
}

/** A route permission followed by one of the known actions, e.g. `notice.list:query`. */
export function isButtonPermission(name: string): boolean {
  const colon = name.indexOf(':');
  if (colon <= 0 || colon !== name.lastIndexOf(':')) return false;
  return isAction(name.slice(colon + 1));
}

/** The action directive: the route permission and its action are both held. */
export function permitsAction(held: Held, route: string, action: Action): boolean {
  return route.length > 0 && held.has(route) && held.has(buttonPermission(route, action));
}

/** The action directive's drawing: hidden without the permission, or greyed with the `show` argument. */
export function actionVisibility(held: Held, route: string, action: Action, show = false): Visibility {
  if (permitsAction(held, route, action)) return 'shown';
  return show ? 'greyed' : 'hidden';
}

/** The full-name directive: exactly this permission is held. */
export function permitsFull(held: Held, name: string): boolean {
  return name.length > 0 && held.has(name);
}

/** The button directive: `name` is a button permission and it is held. */
export function permitsButton(held: Held, name: string): boolean {
  return isButtonPermission(name) && held.has(name);
}

/**
 * The device directive. The grey case is checked first: set 0 with view 1 is greyed. Then the
 * element is removed when the code is absent, set is 0 or -1, or view is 0; otherwise shown.
 */
export function deviceVisibility(entries: readonly DevicePermissionEntry[] | null | undefined, code: string): Visibility {
  const entry = entries?.find((item) => item.permissionCode === code);
  if (!entry) return 'hidden';
  if (entry.setStatus === 0 && entry.viewStatus === 1) return 'greyed';
  if (entry.setStatus === 0 || entry.setStatus === -1 || entry.viewStatus === 0) return 'hidden';
  return 'shown';
}

/** Every permission the signed-in account holds (account and current scene). */
export function usePermissions(): Held {
  return useSession().permissions;
}

/** Whether the route permission plus `action` is held (e.g. `device.list` + `add`). */
export function usePermitted(route: string, action: Action): boolean {
  return permitsAction(usePermissions(), route, action);
}

/** Whether exactly the permission `name` is held. */
export function useFullPermission(name: string): boolean {
  return permitsFull(usePermissions(), name);
}

/** Whether the button permission `name` (`route:action`) is held. */
export function useButtonPermission(name: string): boolean {
  return permitsButton(usePermissions(), name);
}
