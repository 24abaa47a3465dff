/**
 * Geofences (/waybill/geofence, permission waybill.geofence): the caller's fences and its
 * organizations', made and changed on the map or by typing, deleted after a confirmation, the
 * devices each watches, and its crossings.
 */
import { Alert, Button, Card, H2, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, DesktopIcon, EditIcon, ErrorIcon, HistoryIcon, MapMarkerIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { formatInstant } from '@/lib/units';
import { useDeleteFence, useFences, type Fence } from './api/fences';
import { FenceDevicesDialog } from './components/FenceDevices';
import { FenceDialog } from './components/FenceDialog';
import { FenceEventsDialog } from './components/FenceEvents';
import './geofence.css';

function areasText(t: (key: string, options?: Record<string, unknown>) => string, fence: Fence): string {
  const circles = fence.areas.filter((a) => a.shape === 'circle').length;
  const polygons = fence.areas.length - circles;
  return [circles ? t('circles', { count: circles }) : '', polygons ? t('polygons', { count: polygons }) : '']
    .filter(Boolean).join(', ');
}

export default function GeofencePage() {
  const { t, i18n } = useTranslation(['geofence', 'app']);
  const paging = usePaging();
  const fences = useFences(paging.start, paging.pageSize);
  const remove = useDeleteFence();
  const [editing, setEditing] = useState<Fence | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Fence | null>(null);
  const [devices, setDevices] = useState<Fence | null>(null);
  const [events, setEvents] = useState<Fence | null>(null);
  const page = fences.data;

  return (
    <div className="jc-gf" data-testid="geofence-page">
      <header className="jc-gf-head">
        <H2>{t('app:route.geofence')}</H2>
        <p className="jc-gf-hint">{t('subtitle')}</p>
      </header>
      <Card elevation={0} className="jc-gf-card">
        <div className="jc-gf-toolbar">
          <Button intent="primary" icon={<AddIcon />} text={t('add')} onClick={() => setEditing('new')} data-testid="fence-add" />
        </div>
        {page === undefined ? (
          fences.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
        ) : page.data.length === 0 ? (
          <NonIdealState icon={<MapMarkerIcon />} title={t('empty')} description={t('emptyHint')} />
        ) : (
          <div className="jc-gf-table-wrap">
            <HTMLTable striped className="jc-gf-table" data-testid="fence-table">
              <thead>
                <tr>
                  <th>{t('column.name')}</th>
                  <th>{t('column.areas')}</th>
                  <th>{t('column.devices')}</th>
                  <th>{t('column.owner')}</th>
                  <th>{t('column.created')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {page.data.map((fence) => (
                  <tr key={fence.id} data-testid="fence-row">
                    <td><strong>{fence.name}</strong></td>
                    <td>{areasText(t, fence)}</td>
                    <td>{fence.deviceCount}</td>
                    <td>{fence.organizationName ?? <Tag minimal>{t('personal')}</Tag>}</td>
                    <td>{formatInstant(fence.createdAt, i18n.language, false)}</td>
                    <td className="jc-gf-actions">
                      <Button variant="minimal" icon={<HistoryIcon />} title={t('events')} aria-label={t('events')}
                        onClick={() => setEvents(fence)} data-testid="fence-events-open" />
                      <Button variant="minimal" icon={<DesktopIcon />} title={t('devices')} aria-label={t('devices')}
                        onClick={() => setDevices(fence)} disabled={!fence.changeable} data-testid="fence-devices" />
                      <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                        onClick={() => setEditing(fence)} disabled={!fence.changeable} data-testid="fence-edit" />
                      <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')} aria-label={t('delete')}
                        onClick={() => setDeleting(fence)} disabled={!fence.changeable} data-testid="fence-delete" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      </Card>
      <FenceDialog fence={editing} onClose={() => setEditing(null)} />
      <FenceDevicesDialog fence={devices} onClose={() => setDevices(null)} />
      <FenceEventsDialog fence={events} onClose={() => setEvents(null)} />
      <Alert isOpen={deleting !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete')} loading={remove.isPending} onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}>
        <p data-testid="fence-delete-confirm">{t('deleteConfirm', { name: deleting?.name ?? '' })}</p>
      </Alert>
    </div>
  );
}
