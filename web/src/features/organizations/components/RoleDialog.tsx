import {
  Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Spinner, Tree, type TreeNodeInfo,
} from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { showError } from '@/lib/serverErrors';
import {
  ROLE_LIMITS, useGrantablePermissions, useSaveRole, type OrganizationRole, type PermissionRoute,
} from '../api/roles';
import {
  actionOf, chosenPermissions, roleFormSchema, routeKey, routeState, toggleAction, toggleRoute, type RoleForm,
} from '../roleForm';

interface RoleDialogProps {
  /** The organization the role is made in. */
  organizationId: number;
  /** The custom role to change, 'new' to make one; null: closed. */
  role: OrganizationRole | 'new' | null;
  onClose: () => void;
}

/** Makes or changes a custom role: name, description and the permission tree. */
export function RoleDialog({ organizationId, role, onClose }: RoleDialogProps) {
  const { t } = useTranslation('organizations');
  return (
    <Dialog isOpen={role !== null} onClose={onClose} className="jc-role-dialog"
      title={t(role === 'new' ? 'roles.addTitle' : 'roles.editTitle')}>
      {role !== null && <RoleFormBody organizationId={organizationId} role={role === 'new' ? null : role} onDone={onClose} />}
    </Dialog>
  );
}

function RoleFormBody({ organizationId, role, onDone }: { organizationId: number; role: OrganizationRole | null;
  onDone: () => void }) {
  const { t } = useTranslation('organizations');
  const schema = useMemo(() => roleFormSchema(t), [t]);
  const tree = useGrantablePermissions();
  const save = useSaveRole();
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<RoleForm>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: { roleName: role?.roleName ?? '', description: role?.description ?? '', permissions: role?.permissions ?? [] },
  });
  const submit = handleSubmit((values) => {
    setFormError(null);
    const fields = { roleName: values.roleName, description: values.description || null,
      permissions: chosenPermissions(tree.data ?? [], values.permissions) };
    save.mutate({ fields, organizationId, roleId: role?.roleId }, {
      onSuccess: onDone,
      // The server's refusal of a field (a name already taken) shows under that field.
      onError: (error) => setFormError(showError(error, setError, ['roleName', 'description', 'permissions'] as const,
        {}, t)),
    });
  });
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="role-form">
      <DialogBody>
        <Controller name="roleName" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('roles.field.name')} labelFor="role-name" labelInfo={t('roles.required')}
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('roles.lengthHint', { max: ROLE_LIMITS.name })}>
            <InputGroup {...field} id="role-name" inputRef={ref} autoFocus intent={fieldState.error ? 'danger' : 'none'}
              data-testid="role-name" />
          </FormGroup>
        )} />
        <Controller name="description" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('roles.field.description')} labelFor="role-description"
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('roles.lengthHint', { max: ROLE_LIMITS.description })}>
            <InputGroup {...field} id="role-description" inputRef={ref} intent={fieldState.error ? 'danger' : 'none'}
              data-testid="role-description" />
          </FormGroup>
        )} />
        <Controller name="permissions" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('roles.field.permissions')} intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('roles.treeHint')}>
            {tree.data === undefined ? (tree.isError ? <Callout intent="danger">{t('error.load')}</Callout> : <Spinner size={20} />) : (
              <PermissionTree routes={tree.data} held={field.value} onChange={field.onChange} />
            )}
          </FormGroup>
        )} />
        {formError && <Callout intent="danger" data-testid="role-form-error">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} disabled={tree.data === undefined}
          data-testid="role-save" />
      </>} />
    </form>
  );
}

interface PermissionTreeProps {
  /** The routes a custom role may grant, with their actions. */
  routes: readonly PermissionRoute[];
  /** The permission names chosen. */
  held: readonly string[];
  onChange: (held: string[]) => void;
}

/** The permissions grouped by route: a route's box checks all its actions, and shows when only some are. */
export function PermissionTree({ routes, held, onChange }: PermissionTreeProps) {
  const { t } = useTranslation('organizations');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const set = new Set(held);
  const nodes: TreeNodeInfo[] = routes.map((route) => {
    const state = routeState(route, set);
    const label = t(`roles.permission.${routeKey(route.route)}`, { defaultValue: route.route });
    return {
      id: route.route,
      hasCaret: route.actions.length > 0,
      isExpanded: expanded.has(route.route),
      label: (
        <Checkbox className="jc-role-check" checked={state === 'checked'} indeterminate={state === 'partial'}
          disabled={route.fixed} label={label} onChange={() => onChange(toggleRoute(route, held))}
          data-testid="perm-route" data-route={route.route} data-state={state} />
      ),
      secondaryLabel: route.fixed ? <span className="jc-org-muted">{t('roles.always')}</span> : undefined,
      childNodes: route.actions.map((action) => ({
        id: action,
        label: (
          <Checkbox className="jc-role-check" checked={route.fixed || set.has(action)} disabled={route.fixed}
            label={t(`roles.action.${actionOf(action)}`, { defaultValue: actionOf(action) })}
            onChange={() => onChange(toggleAction(route, action, held))} data-testid="perm-action" data-name={action} />
        ),
      })),
    };
  });
  const toggle = (node: TreeNodeInfo, open: boolean) => setExpanded((now) => {
    const next = new Set(now);
    if (open) next.add(String(node.id));
    else next.delete(String(node.id));
    return next;
  });
  return (
    <div className="jc-role-tree" data-testid="perm-tree">
      <Tree contents={nodes} onNodeExpand={(n) => toggle(n, true)} onNodeCollapse={(n) => toggle(n, false)} />
    </div>
  );
}
