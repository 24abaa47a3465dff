import { Alert, Button, Card, H2, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, DocumentIcon, EditIcon, ErrorIcon, TrashIcon, TruckIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { NameSearch } from '@/components/NameSearch';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import {
  exportWaybills, useAlarmCount, useDeleteWaybill, useWaybills, WAYBILL_STATES, type Waybill, type WaybillFilter, type WaybillState,
} from './api/waybills';
import { StateTag } from './components/StateTag';
import { WaybillDrawer } from './components/WaybillDrawer';
import './waybills.css';

export const detailPath = (id: number) => `/waybill/detail/${id}`;
const ANY = 'any';

/** The list's state filter: a state, or any. */
export function parseStateChoice(value: string): WaybillState | null {
  const n = Number(value);
  return value !== ANY && (WAYBILL_STATES as readonly number[]).includes(n) ? (n as WaybillState) : null;
}

/** Waybills: the owner's trips, filtered by keyword and state, made, edited, deleted and exported. */
export default function WaybillsPage() {
  const { t, i18n } = useTranslation(['waybills', 'app']);
  const held = usePermissions();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<WaybillFilter>({ keyword: '', state: null });
  const paging = usePaging();
  const query = useWaybills(filter, paging.start, paging.pageSize);
  const remove = useDeleteWaybill();
  const [editing, setEditing] = useState<Waybill | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Waybill | null>(null);
  const [exporting, setExporting] = useState(false);
  const page = query.data;
  const filtered = filter.keyword !== '' || filter.state !== null;
  const when = (iso: string | null | undefined) => (iso ? formatInstant(iso, i18n.language, false) : '—');

  const changeFilter = (next: Partial<WaybillFilter>) => {
    setFilter((current) => ({ ...current, ...next }));
    paging.restart();
  };
  const doExport = () => {
    setExporting(true);
    exportWaybills(filter).then(({ blob, fileName }) => saveFile(blob, fileName ?? 'waybills.xlsx'))
      .catch(() => undefined) // the client has said why
      .finally(() => setExporting(false));
  };
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => notify.success(t('deleted', { name: deleting.orderNum ?? `#${deleting.id}` })),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <div className="jc-wb" data-testid="waybills-page">
      <header className="jc-wb-head">
        <H2>{t('app:route.waybillList')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-wb-card" elevation={0}>
        <div className="jc-wb-toolbar">
          <NameSearch value={filter.keyword} onSearch={(keyword) => changeFilter({ keyword })}
            placeholder={t('searchPlaceholder')} searchText={t('search')} clearLabel={t('clear')} testId="waybill-search" />
          <HTMLSelect value={filter.state === null ? ANY : String(filter.state)} aria-label={t('column.state')}
            onChange={(event) => changeFilter({ state: parseStateChoice(event.currentTarget.value) })}
            data-testid="waybill-state-filter"
            options={[{ value: ANY, label: t('state.any') }, ...WAYBILL_STATES.map((s) => ({ value: String(s), label: t(`state.${s}`) }))]} />
          <span className="jc-wb-spacer" />
          {held.has('waybill.list:export') && (
            <Button icon={<DocumentIcon />} text={t('export')} loading={exporting} onClick={doExport}
              disabled={!page || page.totalCount === 0} data-testid="waybill-export" />
          )}
          {held.has('waybill.list:add') && (
            <Button intent="primary" icon={<AddIcon />} text={t('add')} onClick={() => setEditing('new')} data-testid="waybill-add" />
          )}
        </div>
        {page === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
        ) : page.data.length === 0 ? (
          <NonIdealState icon={<TruckIcon />} title={t(filtered ? 'noMatch' : 'empty')}
            description={filtered ? undefined : t('emptyHint')} />
        ) : (
          <HTMLTable className="jc-wb-table" striped data-testid="waybills-table">
            <thead>
              <tr>
                <th>{t('field.orderNum')}</th>
                <th>{t('field.goodsName')}</th>
                <th>{t('column.state')}</th>
                <th>{t('column.devices')}</th>
                <th>{t('field.startTime')}</th>
                <th>{t('field.stopTime')}</th>
                <th>{t('column.alarms')}</th>
                <th aria-label={t('column.actions')} />
              </tr>
            </thead>
            <tbody>
              {page.data.map((waybill) => (
                <tr key={waybill.id} data-testid="waybill-row" data-order={waybill.orderNum ?? ''}>
                  <td data-label={t('field.orderNum')}>
                    <Link to={detailPath(waybill.id)} className="jc-wb-name" data-testid="waybill-open">
                      {waybill.orderNum ?? `#${waybill.id}`}
                    </Link>
                  </td>
                  <td data-label={t('field.goodsName')} className="jc-wb-text">{waybill.goodsName ?? '—'}</td>
                  <td data-label={t('column.state')}><StateTag state={waybill.state} /></td>
                  <td data-label={t('column.devices')} className="jc-wb-text">
                    {waybill.devices.length === 0 ? '—' : waybill.devices.map((d) => d.deviceName).join(', ')}
                  </td>
                  <td data-label={t('field.startTime')}>{when(waybill.startTime)}</td>
                  <td data-label={t('field.stopTime')}>{when(waybill.stopTime)}</td>
                  <td data-label={t('column.alarms')}><AlarmCount id={waybill.id} /></td>
                  <td className="jc-wb-actions">
                    {held.has('waybill.list:edit') && waybill.changeable && waybill.state !== 2 && (
                      <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                        onClick={() => setEditing(waybill)} data-testid="waybill-edit" />
                    )}
                    {held.has('waybill.list:delete') && waybill.changeable && (
                      <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')} aria-label={t('delete')}
                        onClick={() => setDeleting(waybill)} data-testid="waybill-delete" />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      </Card>
      <WaybillDrawer waybill={editing} onClose={() => setEditing(null)}
        onSaved={(saved) => { if (editing === 'new') void navigate(detailPath(saved.id)); }} />
      <Alert isOpen={deleting !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete')} loading={remove.isPending} onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete} canEscapeKeyCancel>
        <p data-testid="waybill-delete-confirm">{t('deleteConfirm', { name: deleting?.orderNum ?? `#${deleting?.id ?? ''}` })}</p>
      </Alert>
    </div>
  );
}

/** A row's alarm count, asked per row (the list call does not carry it). */
function AlarmCount({ id }: { id: number }) {
  const count = useAlarmCount(id);
  return count === undefined ? <span>…</span>
    : <Tag minimal round intent={count > 0 ? 'danger' : 'none'} data-testid="waybill-alarms">{count}</Tag>;
}
