import {
  Alert, Button, Card, H2, H4, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag,
} from '@blueprintjs/core';
import { AddIcon, EditIcon, ErrorIcon, ExchangeIcon, PeopleIcon, TrashIcon, UserIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermitted } from '@/lib/permissions';
import { useSession } from '@/lib/session';
import { formatInstant } from '@/lib/units';
import {
  ASSIGNABLE, MANAGERS, useChangeRole, useDissolveOrganization, useHandOver, useMembers, useMyOrganizations,
  useRemoveMember, useWithdrawInvitation, type Member, type MyOrganization,
} from './api/organizations';
import { useOrganizationRoles } from './api/roles';
import { InviteDialog, NameDialog, type RoleOption } from './components/dialogs';
import './organizations.css';

type Confirm = { kind: 'dissolve' } | { kind: 'remove' | 'handOver'; member: Member };

/** My organizations: create, rename, dissolve; the chosen one's members, their roles, invitations. */
export default function OrganizationsPage() {
  const { t } = useTranslation(['organizations', 'app']);
  const query = useMyOrganizations();
  const mayCreate = usePermitted('organization.list', 'add');
  const [chosen, setChosen] = useState<number | null>(null);
  const [naming, setNaming] = useState<MyOrganization | null | undefined>(undefined);
  const list = query.data;
  const current = list?.find((o) => o.organizationId === chosen) ?? list?.[0];

  return (
    <div className="jc-org" data-testid="organizations-page">
      <header className="jc-org-head">
        <div>
          <H2>{t('app:route.organizationList')}</H2>
          <p className="jc-org-muted">{t('subtitle')}</p>
        </div>
        {mayCreate && (
          <Button intent="primary" icon={<AddIcon />} text={t('create')} onClick={() => setNaming(null)} data-testid="org-create" />
        )}
      </header>
      {list === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
      ) : list.length === 0 || current === undefined ? (
        <NonIdealState icon={<PeopleIcon />} title={t('empty')} description={t(mayCreate ? 'emptyCreate' : 'emptyJoin')} />
      ) : (
        <div className="jc-org-body">
          <nav className="jc-org-list" aria-label={t('mine')}>
            {list.map((o) => (
              <Card key={o.organizationId} interactive selected={o.organizationId === current.organizationId}
                onClick={() => setChosen(o.organizationId)} data-testid="org-item" className="jc-org-item">
                <strong>{o.organizationName}</strong>
                <div className="jc-org-muted">
                  <Tag minimal intent={o.creator ? 'primary' : 'none'}>{o.roleName}</Tag>{' '}
                  {t('counts', { members: o.memberCount, devices: o.deviceCount })}
                </div>
              </Card>
            ))}
          </nav>
          <OrganizationPanel key={current.organizationId} organization={current} onRename={() => setNaming(current)} />
        </div>
      )}
      <NameDialog organization={naming} onClose={() => setNaming(undefined)} />
    </div>
  );
}

function OrganizationPanel({ organization, onRename }: { organization: MyOrganization; onRename: () => void }) {
  const { t, i18n } = useTranslation('organizations');
  const me = useSession().info?.baseAccount.id;
  const members = useMembers(organization.organizationId);
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const handOver = useHandOver();
  const dissolve = useDissolveOrganization();
  const withdraw = useWithdrawInvitation();
  const [inviting, setInviting] = useState(false);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const id = organization.organizationId;
  const manages = MANAGERS.includes(organization.roleCode);
  const creates = organization.roleCode === 'org_creator';
  const pending = remove.isPending || handOver.isPending || dissolve.isPending;
  // The roles a member may be given: the built-in assignable ones, then the organization's custom roles.
  const roles = useOrganizationRoles(manages ? id : null);
  const builtInLabel = (code: string) => t(`role.${code}`);
  const options: RoleOption[] = roles.data
    ? roles.data.filter((r) => r.assignable).map((r) => ({ value: r.roleCode, label: r.builtIn ? builtInLabel(r.roleCode) : r.roleName }))
    : ASSIGNABLE.map((code) => ({ value: code, label: builtInLabel(code) }));
  const roleLabel = (code: string) => options.find((o) => o.value === code)?.label ?? t(`role.${code}`, { defaultValue: code });
  const optionsFor = (m: Member) => (options.some((o) => o.value === m.roleCode) ? options
    : [...options, { value: m.roleCode, label: m.roleName }]);

  const confirmed = () => {
    if (confirm === null) return;
    const done = { onSettled: () => setConfirm(null) };
    if (confirm.kind === 'dissolve') dissolve.mutate(id, done);
    else if (confirm.kind === 'remove') remove.mutate({ organizationId: id, accountId: confirm.member.accountId }, done);
    else handOver.mutate({ organizationId: id, accountId: confirm.member.accountId }, done);
  };

  return (
    <Card className="jc-org-panel" elevation={0} data-testid="org-panel">
      <div className="jc-org-panel-head">
        <H4 data-testid="org-title">{organization.organizationName}</H4>
        <div className="jc-org-actions">
          {manages && <Button icon={<UserIcon />} intent="primary" text={t('invite')} onClick={() => setInviting(true)} data-testid="org-invite" />}
          {manages && <Button icon={<EditIcon />} text={t('rename')} onClick={onRename} data-testid="org-rename" />}
          {creates && (
            <Button icon={<TrashIcon />} intent="danger" variant="outlined" text={t('dissolve')}
              onClick={() => setConfirm({ kind: 'dissolve' })} data-testid="org-dissolve" />
          )}
        </div>
      </div>
      {members.data === undefined ? (
        members.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
      ) : (
        <>
          <div className="jc-org-table-wrap">
            <HTMLTable className="jc-org-table jc-phone-cards" striped data-testid="members-table">
              <thead>
                <tr>
                  <th>{t('column.user')}</th>
                  <th>{t('column.role')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {members.data.members.map((m) => (
                  <tr key={m.accountId} data-testid="member-row" data-user={m.userName}>
                    <td data-label={t('column.user')}>
                      <span className="jc-org-user">
                        <strong>{m.userName}</strong>{m.accountId === me && <Tag minimal className="jc-org-me">{t('me')}</Tag>}
                        {m.realName && <span className="jc-org-muted">{m.realName}</span>}
                      </span>
                    </td>
                    <td data-label={t('column.role')}>
                      {manages && !m.creator && m.accountId !== me ? (
                        <HTMLSelect value={m.roleCode} aria-label={t('column.role')} data-testid="member-role"
                          disabled={changeRole.isPending}
                          onChange={(e) => changeRole.mutate({ organizationId: id, accountId: m.accountId, roleCode: e.target.value })}
                          options={optionsFor(m)} />
                      ) : (
                        <Tag minimal intent={m.creator ? 'primary' : 'none'} data-testid="member-role-name">{m.roleName}</Tag>
                      )}
                    </td>
                    <td className="jc-org-row-actions">
                      {creates && !m.creator && (
                        <Button variant="minimal" icon={<ExchangeIcon />} title={t('handOver')} aria-label={t('handOver')}
                          onClick={() => setConfirm({ kind: 'handOver', member: m })} data-testid="member-hand-over" />
                      )}
                      {manages && !m.creator && m.accountId !== me && (
                        <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('remove')} aria-label={t('remove')}
                          onClick={() => setConfirm({ kind: 'remove', member: m })} data-testid="member-remove" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          {members.data.invitations.length > 0 && (
            <section className="jc-org-invitations" data-testid="invitations">
              <H4>{t('pending')}</H4>
              <ul>
                {members.data.invitations.map((i) => (
                  <li key={i.invitationId} data-testid="invitation-row">
                    <strong>{i.displayName}</strong>{' '}
                    <Tag minimal>{roleLabel(i.roleCode)}</Tag>{' '}
                    {t('expires', { time: formatInstant(i.expiresAt, i18n.language, false) })}
                    <Button variant="minimal" size="small" text={t('withdraw')} onClick={() => withdraw.mutate(i.invitationId)}
                      data-testid="invitation-withdraw" />
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
      <InviteDialog organizationId={inviting ? id : null} roles={options} onClose={() => setInviting(false)} />
      <Alert isOpen={confirm !== null} intent={confirm?.kind === 'handOver' ? 'warning' : 'danger'}
        cancelButtonText={t('cancel')} confirmButtonText={t(confirm?.kind ?? 'dissolve')} loading={pending}
        onCancel={() => setConfirm(null)} onConfirm={confirmed}>
        <p data-testid="org-confirm">
          {confirm?.kind === 'dissolve'
            ? t('dissolveConfirm', { name: organization.organizationName })
            : t(`${confirm?.kind ?? 'remove'}Confirm`, { user: confirm && 'member' in confirm ? confirm.member.userName : '',
              name: organization.organizationName })}
        </p>
      </Alert>
    </Card>
  );
}
