import { Alert, Button, Checkbox, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { EditIcon, ErrorIcon, LogOutIcon, ShareIcon, UndoIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NameSearch } from '@/components/NameSearch';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { useRevokeShares, useShares, type Share, type ShareDirection } from '@/lib/api/sharing';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { formatInstant } from '@/lib/units';
import { EditShareDialog } from './EditShareDialog';

/**
 * One side of the sharer list: the shares I made (revoke, change template or end time) or those
 * made with me (leave), searched by device or person, revoked one at a time or ticked and together.
 */
export function SharesPanel({ direction }: { direction: ShareDirection }) {
  const { t, i18n } = useTranslation('sharing');
  const held = usePermissions();
  const mine = direction === 'mine';
  const [keyword, setKeyword] = useState('');
  const paging = usePaging();
  const query = useShares(direction, keyword, paging.start, paging.pageSize);
  const revoke = useRevokeShares();
  const [ticked, setTicked] = useState<ReadonlyMap<number, Share>>(new Map());
  const [revoking, setRevoking] = useState<readonly Share[]>([]);
  const [editing, setEditing] = useState<Share | null>(null);
  const mayRevoke = held.has('consumer.sharer:delete');
  const mayEdit = mine && held.has('consumer.sharer:edit');
  const page = query.data;
  const verb = mine ? 'revoke' : 'leave';

  const tick = (share: Share, on: boolean) => setTicked((current) => {
    const next = new Map(current);
    if (on) next.set(share.id, share);
    else next.delete(share.id);
    return next;
  });
  const confirm = async () => {
    try {
      const { revoked } = await revoke.mutateAsync(revoking.map((share) => share.id));
      notify.success(t(`${verb}.done`, { count: revoked }));
      setTicked(new Map());
    } catch {
      // the client has shown the server's reason; nothing changed
    }
    setRevoking([]);
  };

  return (
    <div className="jc-sh-panel" data-testid={`shares-${direction}`}>
      <div className="jc-sh-toolbar">
        <NameSearch value={keyword} onSearch={(value) => { setKeyword(value); paging.restart(); }}
          placeholder={t('searchPlaceholder')} searchText={t('search')} clearLabel={t('clear')} testId={`shares-search-${direction}`} />
        <span className="jc-sh-spacer" />
        {mayRevoke && ticked.size > 0 && (
          <Button intent="danger" variant="outlined" icon={mine ? <UndoIcon /> : <LogOutIcon />}
            text={t(`${verb}.selected`, { count: ticked.size })} onClick={() => setRevoking([...ticked.values()])}
            data-testid="shares-revoke-selected" />
        )}
      </div>
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
      ) : page.data.length === 0 ? (
        <NonIdealState icon={<ShareIcon />} title={t(keyword ? 'noMatch' : `empty.${direction}`)}
          description={keyword ? undefined : t(`emptyHint.${direction}`)} />
      ) : (
        <div className="jc-sh-table-wrap">
          <HTMLTable className="jc-sh-table" striped data-testid="shares-table">
            <thead>
              <tr>
                {mayRevoke && <th className="jc-sh-select" aria-label={t('column.select')} />}
                <th>{t('column.device')}</th>
                <th>{t(mine ? 'column.sharee' : 'column.owner')}</th>
                <th>{t('column.template')}</th>
                <th className="jc-sh-wide">{t('column.since')}</th>
                <th>{t('column.end')}</th>
                <th>{t('column.state')}</th>
                <th aria-label={t('column.actions')} />
              </tr>
            </thead>
            <tbody>
              {page.data.map((share) => (
                <tr key={share.id} data-testid="share-row" data-device-name={share.deviceName} data-active={share.active}>
                  {mayRevoke && (
                    <td className="jc-sh-select">
                      <Checkbox checked={ticked.has(share.id)} onChange={(event) => tick(share, event.currentTarget.checked)}
                        aria-label={t('column.selectOne', { name: share.deviceName })} data-testid="share-select" />
                    </td>
                  )}
                  <td>
                    {share.active ? (
                      <Link to={`/device/detail/${share.deviceId}`} className="jc-sh-device">{share.deviceName}</Link>
                    ) : <span className="jc-sh-device">{share.deviceName}</span>}
                    <div className="jc-sh-guid">{share.deviceGuid}</div>
                  </td>
                  <td>{mine ? share.shareeName : share.ownerName}</td>
                  <td><Tag minimal round>{share.templateName}</Tag></td>
                  <td className="jc-sh-wide">{formatInstant(share.createdAt, i18n.language, false)}</td>
                  <td>{share.endTime ? formatInstant(share.endTime, i18n.language, false) : t('never')}</td>
                  <td>
                    <Tag minimal round intent={share.active ? 'success' : 'none'} data-testid="share-state">
                      {t(share.active ? 'state.active' : 'state.ended')}
                    </Tag>
                  </td>
                  <td className="jc-sh-actions">
                    {mayEdit && (
                      <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                        onClick={() => setEditing(share)} data-testid="share-edit" />
                    )}
                    {mayRevoke && (
                      <Button variant="minimal" intent="danger" icon={mine ? <UndoIcon /> : <LogOutIcon />} text={t(`${verb}.one`)}
                        onClick={() => setRevoking([share])} data-testid="share-revoke" />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      <Alert isOpen={revoking.length > 0} intent="danger" icon={mine ? <UndoIcon /> : <LogOutIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t(`${verb}.confirm`, { count: revoking.length })} loading={revoke.isPending}
        onCancel={() => setRevoking([])} onConfirm={() => void confirm()} canEscapeKeyCancel>
        <p data-testid="share-revoke-confirm">
          {revoking.length === 1
            ? t(`${verb}.question`, { device: revoking[0]?.deviceName ?? '', name: mine ? revoking[0]?.shareeName : revoking[0]?.ownerName })
            : t(`${verb}.questionMany`, { count: revoking.length })}
        </p>
      </Alert>
      <EditShareDialog share={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
