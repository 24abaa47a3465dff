import { Alert, Button, Callout, Card, H2, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, EditIcon, ErrorIcon, KeyIcon, PeopleIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MANAGERS, useMyOrganizations, type MyOrganization } from './api/organizations';
import { useDeleteRole, useOrganizationRoles, type OrganizationRole } from './api/roles';
import { RoleDialog } from './components/RoleDialog';
import { routeKey } from './roleForm';
import './organizations.css';

/** /consumer/role: an organization's roles, the built-in ones listed, the custom ones made and changed here. */
export default function RolesPage() {
  const { t } = useTranslation(['organizations', 'app']);
  const query = useMyOrganizations();
  const [chosen, setChosen] = useState<number | null>(null);
  const list = query.data;
  const current = list?.find((o) => o.organizationId === chosen) ?? list?.[0];
  return (
    <div className="jc-org" data-testid="roles-page">
      <header className="jc-org-head">
        <div>
          <H2>{t('app:route.consumerRole')}</H2>
          <p className="jc-org-muted">{t('roles.subtitle')}</p>
        </div>
        {list !== undefined && list.length > 1 && current && (
          <HTMLSelect value={current.organizationId} aria-label={t('roles.organization')} data-testid="roles-organization"
            onChange={(e) => setChosen(Number(e.target.value))}
            options={list.map((o) => ({ value: o.organizationId, label: o.organizationName }))} />
        )}
      </header>
      {list === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
      ) : current === undefined ? (
        <NonIdealState icon={<PeopleIcon />} title={t('empty')} description={t('emptyJoin')} />
      ) : (
        <RolesPanel key={current.organizationId} organization={current} />
      )}
    </div>
  );
}

function RolesPanel({ organization }: { organization: MyOrganization }) {
  const { t } = useTranslation('organizations');
  const id = organization.organizationId;
  const roles = useOrganizationRoles(id);
  const remove = useDeleteRole();
  const manages = MANAGERS.includes(organization.roleCode);
  const [editing, setEditing] = useState<OrganizationRole | 'new' | null>(null);
  const [deleting, setDeleting] = useState<OrganizationRole | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const confirmed = () => {
    if (deleting?.roleId == null) return;
    setFailure(null);
    remove.mutate(deleting.roleId, {
      onError: (e) => setFailure(e instanceof Error && e.message ? e.message : t('error.save')),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Card className="jc-org-panel" elevation={0} data-testid="roles-panel">
      <div className="jc-org-panel-head">
        <div>
          <strong data-testid="roles-organization-name">{organization.organizationName}</strong>
          {!manages && <div className="jc-org-muted">{t('roles.readOnly')}</div>}
        </div>
        {manages && (
          <Button intent="primary" icon={<AddIcon />} text={t('roles.add')} onClick={() => setEditing('new')}
            data-testid="role-add" />
        )}
      </div>
      {failure && <Callout intent="danger" className="jc-role-failure" data-testid="role-error">{failure}</Callout>}
      {roles.data === undefined ? (
        roles.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
      ) : (
        <div className="jc-org-table-wrap">
          <HTMLTable className="jc-org-table jc-phone-cards" striped data-testid="roles-table">
            <thead>
              <tr>
                <th>{t('roles.column.name')}</th>
                <th>{t('roles.column.permissions')}</th>
                <th>{t('roles.column.members')}</th>
                <th aria-label={t('column.actions')} />
              </tr>
            </thead>
            <tbody>
              {roles.data.map((r) => (
                <tr key={r.roleCode} data-testid="role-row" data-code={r.roleCode} data-name={r.roleName}>
                  <td>
                    <strong>{r.builtIn ? t(`role.${r.roleCode}`, { defaultValue: r.roleName }) : r.roleName}</strong>
                    {r.builtIn && <Tag minimal className="jc-org-me" icon={<KeyIcon />} data-testid="role-built-in">{t('roles.builtIn')}</Tag>}
                    {r.description && <div className="jc-org-muted">{r.description}</div>}
                  </td>
                  <td className="jc-role-routes" data-label={t('roles.column.permissions')}>
                    <RouteTags permissions={r.permissions} />
                  </td>
                  <td data-label={t('roles.column.members')}>{r.builtIn ? '—' : r.memberCount}</td>
                  <td className="jc-org-row-actions">
                    {manages && !r.builtIn && (
                      <>
                        <Button variant="minimal" icon={<EditIcon />} title={t('roles.edit')} aria-label={t('roles.edit')}
                          onClick={() => setEditing(r)} data-testid="role-edit" />
                        <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('roles.delete')}
                          aria-label={t('roles.delete')} onClick={() => setDeleting(r)} data-testid="role-delete" />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      <RoleDialog organizationId={id} role={editing} onClose={() => setEditing(null)} />
      <Alert isOpen={deleting !== null} intent="danger" cancelButtonText={t('cancel')} confirmButtonText={t('roles.delete')}
        loading={remove.isPending} onCancel={() => setDeleting(null)} onConfirm={confirmed}>
        <p data-testid="role-confirm">{t('roles.deleteConfirm', { name: deleting?.roleName ?? '' })}</p>
      </Alert>
    </Card>
  );
}

/** The routes a role opens, by name in the reader's language. */
function RouteTags({ permissions }: { permissions: readonly string[] }) {
  const { t } = useTranslation('organizations');
  const routes = permissions.filter((p) => !p.includes(':'));
  return (
    <span className="jc-role-tags">
      {routes.map((route) => (
        <Tag key={route} minimal>{t(`roles.permission.${routeKey(route)}`, { defaultValue: route })}</Tag>
      ))}
    </span>
  );
}
