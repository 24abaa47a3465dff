/**
 * The button directives of spec seed 000 section 6 as components. Each draws its child as usual,
 * greyed out (visible, not usable) or not at all; the rules are in `@/lib/permissions`.
 */
import { cloneElement, isValidElement, type ReactElement, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  actionVisibility,
  deviceVisibility,
  permitsButton,
  permitsFull,
  usePermissions,
  type Action,
  type DevicePermissionEntry,
  type Visibility,
} from '@/lib/permissions';
import './permit.css';

function block(event: SyntheticEvent): void {
  event.preventDefault();
  event.stopPropagation();
}

/** Shows `children` unusable: a `disabled` child when it takes one, and a wrapper that swallows clicks. */
export function Greyed({ children }: { /** What to grey out. */ children: ReactNode }) {
  const { t } = useTranslation('dialogs');
  const child = isValidElement(children)
    ? cloneElement(children as ReactElement<{ disabled?: boolean; tabIndex?: number }>, { disabled: true, tabIndex: -1 })
    : children;
  return (
    <span
      className="jc-permit-greyed"
      aria-disabled="true"
      title={t('permissions.noPermission')}
      data-testid="permit-greyed"
      onClickCapture={block}
      onKeyDownCapture={block}
      onSubmitCapture={block}
    >
      {child}
    </span>
  );
}

function Guarded({ visibility, children }: { visibility: Visibility; children: ReactNode }) {
  if (visibility === 'hidden') return null;
  if (visibility === 'greyed') return <Greyed>{children}</Greyed>;
  return <>{children}</>;
}

export interface PermitProps {
  /** The route permission, e.g. `device.list`. */
  route: string;
  /** The action on that route (`add`, `delete`, `edit`, `query`, `detail`, `enable`, `disable`, `import`, `export`). */
  action: Action;
  /** Grey the child out instead of hiding it when the permission is missing. */
  show?: boolean;
  /** The guarded element, usually a button. */
  children: ReactNode;
}

/** Hides (or with `show` greys out) its child unless `route:action` and its route are held. */
export function Permit({ route, action, show = false, children }: PermitProps) {
  return <Guarded visibility={actionVisibility(usePermissions(), route, action, show)}>{children}</Guarded>;
}

export interface PermitFullProps {
  /** A full permission name, route (`notice.list`) or button (`notice.list:query`). */
  name: string;
  /** The guarded element. */
  children: ReactNode;
}

/** Hides its child unless exactly the permission `name` is held. */
export function PermitFull({ name, children }: PermitFullProps) {
  return permitsFull(usePermissions(), name) ? <>{children}</> : null;
}

export interface DevicePermitProps {
  /** The device's permission entries (`permissionCode`, `setStatus`, `viewStatus`). */
  entries: readonly DevicePermissionEntry[] | null | undefined;
  /** The device-level permission code guarding the child. */
  code: string;
  /** The guarded element. */
  children: ReactNode;
}

/** Shows, greys out (set 0, view 1) or removes its child by a device-level permission code. */
export function DevicePermit({ entries, code, children }: DevicePermitProps) {
  return <Guarded visibility={deviceVisibility(entries, code)}>{children}</Guarded>;
}

export interface PermitButtonProps {
  /** A button permission, `route:action` (e.g. `device.list:export`). */
  permission: string;
  /** The guarded element. */
  children: ReactNode;
}

/** Hides its child unless the button permission is held. */
export function PermitButton({ permission, children }: PermitButtonProps) {
  return permitsButton(usePermissions(), permission) ? <>{children}</> : null;
}
