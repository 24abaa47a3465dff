import { Alert, Button, Classes, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, EditIcon, EndorsedIcon, ErrorIcon, TrashIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '@/app/effects';
import { deleteEndorsement, fdaKeys, useEndorsements, useFdaStatus, type Endorsement } from '@/lib/api/fda';
import { useMembers, useOrganizationRoles } from '@/lib/api/organizationPeople';
import { notify } from '@/lib/notify';
import { firstKey, keyOf, scopeOf, SubjectSelect, type SubjectKey } from '../subjects';
import { EndorsementDialog } from './EndorsementDialog';

/** Who may sign what: the endorsements of the caller's own records or of an organization, added, changed and deleted. */
export function EndorsementsTab() {
  const { t } = useTranslation('fda');
  const subjects = useFdaStatus().data?.subjects;
  const [chosen, setChosen] = useState<SubjectKey | null>(null);
  if (subjects === undefined) return <Spinner size={30} />;
  const key = chosen ?? firstKey(subjects);
  const subject = subjects.find((s) => keyOf(s) === key);
  return (
    <div className="jc-fda-panel" data-testid="fda-endorsements">
      <p className="jc-fda-intro">{t('endorsements.intro')}</p>
      <EndorsementList key={key} subjectKey={key} changeable={subject?.changeable ?? false}
        select={<SubjectSelect subjects={subjects} value={key} onChange={setChosen} />} />
    </div>
  );
}

function EndorsementList({ subjectKey, changeable, select }: { subjectKey: SubjectKey; changeable: boolean; select: ReactNode }) {
  const { t } = useTranslation('fda');
  const queryClient = useQueryClient();
  const scope = scopeOf(subjectKey);
  const organizationId = scope.organizationId ?? null;
  const query = useEndorsements(scope);
  const roles = useOrganizationRoles(organizationId).data ?? [];
  const members = useMembers(organizationId).data?.members ?? [];
  const [editing, setEditing] = useState<Endorsement | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Endorsement | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = query.data?.data;

  const roleName = (id: number) => roles.find((r) => r.roleId === id)?.roleName ?? `#${id}`;
  const personName = (id: number) => {
    const member = members.find((m) => m.accountId === id);
    return member ? member.realName ?? member.userName : `#${id}`;
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteEndorsement(deleting.id);
      notify.success(t('endorsements.deleted', { name: deleting.name }));
      setDeleting(null);
    } catch (error) {
      notify.error(failureText(error));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: fdaKeys.endorsements(scope) });
    }
  };

  return (
    <>
      <div className="jc-fda-toolbar">
        {select}
        <div className="jc-fda-spacer" />
        {changeable && (
          <Button intent="primary" icon={<AddIcon />} text={t('endorsements.add')} onClick={() => setEditing('new')}
            data-testid="endorsement-add" />
        )}
      </div>
      {rows === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner size={30} />
      ) : rows.length === 0 ? (
        <div data-testid="endorsements-empty">
          <NonIdealState icon={<EndorsedIcon />} title={t('endorsements.empty')} description={t('endorsements.emptyHint')} />
        </div>
      ) : (
        <div className="jc-fda-table-wrap">
          <HTMLTable compact striped className="jc-fda-table jc-fda-cards" data-testid="endorsement-table">
            <thead>
              <tr>
                <th scope="col">{t('endorsements.column.name')}</th>
                <th scope="col">{t('endorsements.column.meaning')}</th>
                <th scope="col">{t('endorsements.column.records')}</th>
                <th scope="col">{t('endorsements.column.signers')}</th>
                <th scope="col">{t('endorsements.column.distinct')}</th>
                {changeable && <th scope="col"><span className={Classes.TEXT_MUTED}>{t('actions')}</span></th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const signers = [...row.roleIds.map(roleName), ...row.accountIds.map(personName)];
                return (
                  <tr key={row.id} data-testid="endorsement-row" data-endorsement-id={row.id}>
                    <td className="jc-fda-name-cell jc-fda-lead">
                      <div className="jc-fda-strong">{row.name}</div>
                      {row.description && <div className="jc-fda-muted">{row.description}</div>}
                    </td>
                    <td data-label={t('endorsements.column.meaning')}>{row.meaningText}</td>
                    <td data-label={t('endorsements.column.records')}>
                      <div className="jc-fda-tags">
                        {row.recordTypes.map((type) => <Tag key={type} minimal>{t(`record.${type}`, { defaultValue: type })}</Tag>)}
                      </div>
                    </td>
                    <td className="jc-fda-wrap" data-label={t('endorsements.column.signers')}>{signers.length > 0 ? signers.join(', ') : <span className={Classes.TEXT_MUTED}>{t('endorsements.anyone')}</span>}</td>
                    <td data-label={t('endorsements.column.distinct')}>{row.distinctSigner ? <Tag minimal intent="primary">{t('yes')}</Tag> : <span className={Classes.TEXT_MUTED}>{t('no')}</span>}</td>
                    {changeable && (
                      <td className="jc-fda-actions">
                        <Button variant="minimal" size="small" icon={<EditIcon />} aria-label={t('endorsements.edit')}
                          title={t('endorsements.edit')} onClick={() => setEditing(row)} data-testid="endorsement-edit" />
                        <Button variant="minimal" size="small" intent="danger" icon={<TrashIcon />} aria-label={t('endorsements.delete')}
                          title={t('endorsements.delete')} onClick={() => setDeleting(row)} data-testid="endorsement-delete" />
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
      )}
      <EndorsementDialog scope={scope} endorsement={editing} roles={roles} members={members} onClose={() => setEditing(null)} />
      <Alert isOpen={deleting !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('endorsements.delete')} loading={busy} onCancel={() => setDeleting(null)} onConfirm={() => void remove()}>
        <p data-testid="endorsement-delete-confirm">{t('endorsements.deleteConfirm', { name: deleting?.name ?? '' })}</p>
      </Alert>
    </>
  );
}
