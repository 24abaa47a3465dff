import { Card, Classes, H2, NonIdealState, Spinner, Tag, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { ErrorIcon, KeyIcon } from '@blueprintjs/icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '@/app/routes';
import { useSystemRoles, type SystemRole } from './api/users';
import './useradmin.css';

type Node = TreeNodeInfo<string>;

/** The route name that carries each route permission, for its label in the menu's words. */
const ROUTE_OF: ReadonlyMap<string, string> = new Map(
  ROUTES.flatMap((route) => (route.permissions ?? []).map((permission) => [permission, route.name] as const)).reverse(),
);

/** A role's permissions as a tree: each route permission, its actions under it. */
function permissionTree(role: SystemRole, label: (route: string) => string, action: (name: string) => string): Node[] {
  const routes = new Map<string, string[]>();
  for (const name of role.permissions) {
    const [route, act] = name.split(':') as [string, string | undefined];
    const actions = routes.get(route) ?? [];
    if (act) actions.push(act);
    routes.set(route, actions);
  }
  return [...routes.entries()].map(([route, actions]) => ({
    id: `${role.roleCode}/${route}`,
    label: label(route),
    secondaryLabel: <code className="jc-ua-code">{route}</code>,
    childNodes: actions.length ? actions.map((act) => ({ id: `${role.roleCode}/${route}:${act}`, label: action(act),
      secondaryLabel: <code className="jc-ua-code">{act}</code> })) : undefined,
  }));
}

/** The system roles (/operation/consumer/role), each with the tree of what it grants; read-only. */
export default function RolesPage() {
  const { t } = useTranslation(['useradmin', 'app']);
  const roles = useSystemRoles();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) => setOpen((current) => {
    const next = new Set(current);
    if (next.has(id)) next.delete(id); else next.add(id);
    return next;
  });
  const tree = useMemo(() => (roles.data ?? []).map((role): Node => ({
    id: role.roleCode,
    label: <span data-testid="ua-role" data-role-code={role.roleCode}>{role.roleName}</span>,
    secondaryLabel: <Tag minimal round>{t('permissionCount', { count: role.permissions.length })}</Tag>,
    icon: <KeyIcon className={Classes.TREE_NODE_ICON} />,
    isExpanded: open.has(role.roleCode),
    childNodes: permissionTree(role,
      (route) => { const name = ROUTE_OF.get(route); return name ? t(`app:route.${name}`, { defaultValue: route }) : route; },
      (act) => t(`action.${act}`, { defaultValue: act })).map((node) => ({ ...node, isExpanded: open.has(String(node.id)) })),
  })), [roles.data, open, t]);

  return (
    <div className="jc-ua" data-testid="roles-page">
      <header className="jc-ua-head">
        <H2>{t('app:route.systemRoles')}</H2>
        <p>{t('rolesSubtitle')}</p>
      </header>
      <Card className="jc-ua-card" elevation={0}>
        {roles.data === undefined ? (
          roles.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
        ) : (
          <Tree contents={tree} className="jc-ua-tree" data-testid="ua-role-tree"
            onNodeExpand={(node) => toggle(String(node.id))} onNodeCollapse={(node) => toggle(String(node.id))}
            onNodeClick={(node) => { if (node.childNodes) toggle(String(node.id)); }} />
        )}
      </Card>
    </div>
  );
}
