import { Alert, Button, Card, FormGroup, H2, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import {
  AddIcon, BadgeIcon, DownloadIcon, EditIcon, ErrorIcon, KeyIcon, PeopleIcon, SearchIcon, TrashIcon, TrendingUpIcon,
} from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import {
  ACCOUNT_TYPES, BACK_OFFICE_ROLES, USER_LIMITS, certifyContractor, deleteUser, exportUsers, resetPassword, upgradeUser, useSystemRoles,
  useUserChange, useUsers, type ManagedUser, type UserFilter,
} from './api/users';
import { PasswordDialog } from './components/PasswordDialog';
import { UserDialog } from './components/UserDialog';
import './useradmin.css';

const PERMISSION = 'system.consumer';
type Confirm = { kind: 'delete' | 'reset' | 'upgrade'; user: ManagedUser };
const EMPTY: UserFilter = { userName: '', phone: '', email: '', accountType: undefined, roleCode: '', deleted: false };

/** User administration (/operation/consumer/list): find accounts, add, edit, delete, reset a password, upgrade, certify, export. */
export default function UsersPage() {
  const { t, i18n } = useTranslation(['useradmin', 'app']);
  const held = usePermissions();
  const [draft, setDraft] = useState<UserFilter>(EMPTY);
  const [filter, setFilter] = useState<UserFilter>(EMPTY);
  const paging = usePaging();
  const query = useUsers(filter, paging.start, paging.pageSize);
  const roles = useSystemRoles();
  const [editing, setEditing] = useState<ManagedUser | 'new' | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [shown, setShown] = useState<{ userName: string; password: string } | null>(null);
  const [exporting, setExporting] = useState(false);
  const remove = useUserChange(deleteUser);
  const reset = useUserChange(resetPassword);
  const upgrade = useUserChange(upgradeUser);
  const certify = useUserChange(({ id, certified }: { id: number; certified: boolean }) => certifyContractor(id, certified));
  const page = query.data;
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  // Back-office accounts are a system administrator's (who alone holds system.role): the server refuses the rest.
  const manages = (user: ManagedUser) => !user.deleted && (held.has('system.role')
    || (user.accountType !== 9 && !BACK_OFFICE_ROLES.includes(user.roleCode ?? '')));

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter({ ...draft, userName: draft.userName?.trim(), phone: draft.phone?.trim(), email: draft.email?.trim() });
    paging.restart();
  };
  const clear = () => {
    setDraft(EMPTY);
    setFilter(EMPTY);
    paging.restart();
  };
  const runExport = async () => {
    setExporting(true);
    try {
      const file = await exportUsers(filter);
      saveFile(file.blob, file.fileName ?? 'users.xlsx');
    } finally {
      setExporting(false);
    }
  };
  const confirmed = () => {
    if (!confirm) return;
    const { kind, user } = confirm;
    const done = { onSettled: () => setConfirm(null) };
    if (kind === 'delete') remove.mutate(user.id, { ...done, onSuccess: () => notify.success(t('deleted', { name: user.userName })) });
    if (kind === 'reset') reset.mutate(user.id, { ...done, onSuccess: ({ password }) => setShown({ userName: user.userName, password }) });
    if (kind === 'upgrade') upgrade.mutate(user.id, { ...done, onSuccess: () => notify.success(t('upgraded', { name: user.userName })) });
  };
  const field = (name: 'userName' | 'phone' | 'email') => (
    <FormGroup label={t(`search.${name}`)} labelFor={`ua-search-${name}`} className="jc-ua-filter">
      <InputGroup id={`ua-search-${name}`} value={draft[name] ?? ''} maxLength={USER_LIMITS.search}
        onChange={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })} data-testid={`ua-search-${name}`} />
    </FormGroup>
  );

  return (
    <div className="jc-ua" data-testid="useradmin-page">
      <header className="jc-ua-head">
        <H2>{t('app:route.systemConsumers')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-ua-card" elevation={0}>
        <form className="jc-ua-filters" onSubmit={search} data-testid="ua-search">
          {field('userName')}
          {field('phone')}
          {field('email')}
          <FormGroup label={t('field.accountType')} labelFor="ua-search-type" className="jc-ua-filter">
            <HTMLSelect id="ua-search-type" fill value={draft.accountType ?? ''} data-testid="ua-search-type"
              onChange={(e) => setDraft({ ...draft, accountType: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}>
              <option value="">{t('all')}</option>
              {ACCOUNT_TYPES.map((type) => <option key={type} value={type}>{t(`type.${type}`)}</option>)}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('field.roleCode')} labelFor="ua-search-role" className="jc-ua-filter">
            <HTMLSelect id="ua-search-role" fill value={draft.roleCode ?? ''} data-testid="ua-search-role"
              onChange={(e) => setDraft({ ...draft, roleCode: e.currentTarget.value })}>
              <option value="">{t('all')}</option>
              {(roles.data ?? []).map((r) => <option key={r.roleCode} value={r.roleCode}>{r.roleName}</option>)}
            </HTMLSelect>
          </FormGroup>
          <Switch className="jc-ua-deleted" checked={draft.deleted ?? false} label={t('search.deleted')}
            onChange={(e) => setDraft({ ...draft, deleted: e.currentTarget.checked })} data-testid="ua-search-deleted" />
          <div className="jc-ua-filter-actions">
            <Button type="submit" intent="primary" icon={<SearchIcon />} text={t('search.submit')} data-testid="ua-search-submit" />
            <Button text={t('search.clear')} onClick={clear} />
          </div>
        </form>
        <div className="jc-ua-toolbar">
          <span className="jc-ua-total">{page ? t('total', { count: page.totalCount }) : ''}</span>
          <span className="jc-ua-spacer" />
          {can('export') && (
            <Button icon={<DownloadIcon />} text={t('export')} loading={exporting} onClick={() => void runExport()} data-testid="ua-export" />
          )}
          {can('add') && (
            <Button intent="primary" icon={<AddIcon />} text={t('add')} onClick={() => setEditing('new')} data-testid="ua-add" />
          )}
        </div>
        {page === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
        ) : page.data.length === 0 ? (
          <NonIdealState icon={<PeopleIcon />} title={t('noMatch')} />
        ) : (
          <div className="jc-ua-table-wrap">
            <HTMLTable className="jc-ua-table" striped data-testid="ua-table">
              <thead>
                <tr>
                  <th>{t('column.user')}</th>
                  <th className="jc-ua-wide">{t('column.contact')}</th>
                  <th>{t('field.accountType')}</th>
                  <th className="jc-ua-wide">{t('field.roleCode')}</th>
                  <th className="jc-ua-wide">{t('column.created')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {page.data.map((user) => (
                  <tr key={user.id} data-testid="ua-row" data-user-name={user.userName}>
                    <td>
                      <strong className="jc-ua-name">{user.userName}</strong>
                      {user.realName && <div className="jc-ua-sub">{user.realName}</div>}
                      {user.company && <div className="jc-ua-sub">{user.company}</div>}
                    </td>
                    <td className="jc-ua-contact jc-ua-wide">
                      {user.phone && <div>{user.phone}</div>}
                      {user.email && <div className="jc-ua-sub">{user.email}</div>}
                    </td>
                    <td>
                      <Tag minimal round intent={user.accountType === 9 ? 'primary' : 'none'}>{t(`type.${user.accountType}`)}</Tag>
                      {user.contractorState > 0 && (
                        <Tag minimal round icon={<BadgeIcon />} intent={user.contractorState === 2 ? 'success' : 'warning'}
                          className="jc-ua-contractor" data-testid="ua-contractor">
                          {t(`contractor.${user.contractorState}`)}
                        </Tag>
                      )}
                      {user.deleted && <Tag minimal round intent="danger">{t('deletedTag')}</Tag>}
                    </td>
                    <td className="jc-ua-wide">{user.roleName}</td>
                    <td className="jc-ua-wide">{formatInstant(user.createdAt, i18n.language, false)}</td>
                    <td className="jc-ua-actions">
                      {manages(user) && can('edit') && (
                        <>
                          <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                            onClick={() => setEditing(user)} data-testid="ua-edit" />
                          <Button variant="minimal" icon={<KeyIcon />} title={t('reset')} aria-label={t('reset')}
                            onClick={() => setConfirm({ kind: 'reset', user })} data-testid="ua-reset" />
                          {user.accountType === 1 && user.roleCode === 'customer_personal' && (
                            <Button variant="minimal" icon={<TrendingUpIcon />} title={t('upgrade')} aria-label={t('upgrade')}
                              onClick={() => setConfirm({ kind: 'upgrade', user })} data-testid="ua-upgrade" />
                          )}
                          {user.contractorState > 0 && (
                            <Button variant="minimal" icon={<BadgeIcon />} intent={user.contractorState === 2 ? 'none' : 'success'}
                              title={t(user.contractorState === 2 ? 'uncertify' : 'certify')}
                              aria-label={t(user.contractorState === 2 ? 'uncertify' : 'certify')}
                              loading={certify.isPending && certify.variables?.id === user.id}
                              onClick={() => certify.mutate({ id: user.id, certified: user.contractorState !== 2 })}
                              data-testid="ua-certify" />
                          )}
                        </>
                      )}
                      {manages(user) && can('delete') && (
                        <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')} aria-label={t('delete')}
                          onClick={() => setConfirm({ kind: 'delete', user })} data-testid="ua-delete" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      </Card>
      <UserDialog user={editing} roles={roles.data ?? []} onClose={() => setEditing(null)}
        onAdded={(user, password) => {
          notify.success(t('added', { name: user.userName }));
          if (password) setShown({ userName: user.userName, password });
        }} />
      <PasswordDialog shown={shown} onClose={() => setShown(null)} />
      <Alert isOpen={confirm !== null} intent={confirm?.kind === 'delete' ? 'danger' : 'primary'}
        icon={confirm?.kind === 'delete' ? <TrashIcon /> : confirm?.kind === 'reset' ? <KeyIcon /> : <TrendingUpIcon />}
        cancelButtonText={t('cancel')} confirmButtonText={t(confirm?.kind ?? 'delete')}
        loading={remove.isPending || reset.isPending || upgrade.isPending}
        onCancel={() => setConfirm(null)} onConfirm={confirmed} canEscapeKeyCancel>
        <p data-testid="ua-confirm">{confirm ? t(`confirm.${confirm.kind}`, { name: confirm.user.userName }) : ''}</p>
      </Alert>
    </div>
  );
}
