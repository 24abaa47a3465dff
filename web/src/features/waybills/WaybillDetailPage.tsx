import { Alert, Button, Card, H2, H4, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ArrowLeftIcon, DocumentIcon, EditIcon, LinkIcon, PlayIcon, StopIcon, TruckIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useFenceChoices } from '@/lib/api/fences';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import { downloadReportPdf, useSetWaybillState, useTrip, useWaybill } from './api/waybills';
import { ShareDialog } from './components/ShareDialog';
import { StateTag } from './components/StateTag';
import { TripReport } from './components/TripReport';
import { WaybillApproval } from './components/WaybillApproval';
import { WaybillDrawer } from './components/WaybillDrawer';
import './waybills.css';

function parseId(raw: string | undefined): number | null {
  return raw && /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) < 2 ** 31 ? Number(raw) : null;
}

/** One waybill: its particulars, its approval (FDA mode), devices, starting and finishing it, its trip report, PDF and share links. */
export default function WaybillDetailPage() {
  const id = parseId(useParams().waybillPk);
  const { t } = useTranslation('waybills');
  const back = <Link to="/waybill/list" className="jc-wb-back" data-testid="waybill-back"><ArrowLeftIcon /> {t('back')}</Link>;
  if (id === null) {
    return <div className="jc-wb">{back}<NonIdealState icon={<TruckIcon />} title={t('missing')} data-testid="waybill-missing" /></div>;
  }
  return <WaybillDetail id={id} back={back} />;
}

function WaybillDetail({ id, back }: { id: number; back: React.ReactNode }) {
  const { t, i18n } = useTranslation(['waybills', 'app']);
  const held = usePermissions();
  const query = useWaybill(id);
  // The report and its PDF need the detail permission; sharing and starting, edit (the server's rules).
  const mayRead = held.has('waybill.list:detail');
  const trip = useTrip(id, mayRead);
  const fenced = Boolean(query.data?.originFenceId || query.data?.destinationFenceId);
  const fences = useFenceChoices(fenced && held.has('waybill.geofence'));
  const setState = useSetWaybillState();
  const [editing, setEditing] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [confirming, setConfirming] = useState<1 | 2 | null>(null);
  const [downloading, setDownloading] = useState(false);
  if (query.data === undefined) {
    return (
      <div className="jc-wb" data-testid="waybill-detail-page">
        {back}
        {query.isError ? <NonIdealState icon={<TruckIcon />} title={t('missing')} data-testid="waybill-missing" /> : <Spinner />}
      </div>
    );
  }
  const waybill = query.data;
  const name = waybill.orderNum ?? `#${waybill.id}`;
  const mayEdit = held.has('waybill.list:edit') && waybill.changeable;
  const when = (iso: string | null | undefined) => (iso ? formatInstant(iso, i18n.language, false) : '—');
  const limit = (v: number | null | undefined) => (v === null ? '—' : `${v} °C`);
  const party = (n?: string | null, phone?: string | null, address?: string | null) =>
    [n, phone, address].filter(Boolean).join(' · ') || '—';
  // A fence is named when the caller's list has it (one deleted since, or not the caller's to list, by number).
  const fence = (label: string, fenceId: number | null | undefined): [string, string][] => (fenceId
    ? [[label, fences.data?.data.find((f) => f.id === fenceId)?.name
      ?? (fences.isLoading ? '…' : t('fence.unknown', { id: fenceId }))]] : []);
  const info: [string, string][] = [
    [t('field.goodsName'), waybill.goodsName ?? '—'], [t('field.expressNumber'), waybill.expressNumber ?? '—'],
    [t('field.coolerCode'), waybill.coolerCode ?? '—'], [t('field.lowerLimit'), limit(waybill.lowerLimit)],
    [t('field.upperLimit'), limit(waybill.upperLimit)], [t('field.startTime'), when(waybill.startTime)],
    [t('field.stopTime'), when(waybill.stopTime)], [t('field.startedAt'), when(waybill.startedAt)],
    [t('field.finishedAt'), when(waybill.finishedAt)], [t('column.alarms'), String(waybill.alarmCount)],
    [t('field.sender'), party(waybill.senderName, waybill.senderPhone, waybill.senderAddress)],
    [t('field.receiver'), party(waybill.receiverName, waybill.receiverPhone, waybill.receiverAddress)],
    [t('section.contacts'), (waybill.alarmContacts ?? []).map((c) => [c.name, c.phone, c.email].filter(Boolean).join(' ')).join('; ') || '—'],
    ...fence(t('field.originFence'), waybill.originFenceId),
    ...fence(t('field.destinationFence'), waybill.destinationFenceId),
  ];
  const changeState = () => {
    if (confirming === null) return;
    const state = confirming;
    setState.mutate({ id, state }, {
      onSuccess: () => notify.success(t(state === 1 ? 'action.started' : 'action.finished')),
      onSettled: () => setConfirming(null),
    });
  };
  const pdf = () => {
    setDownloading(true);
    downloadReportPdf(id).then(({ blob, fileName }) => saveFile(blob, fileName ?? `waybill-${id}.pdf`))
      .catch(() => undefined) // the client has said why
      .finally(() => setDownloading(false));
  };
  return (
    <div className="jc-wb" data-testid="waybill-detail-page">
      {back}
      <div className="jc-wb-detail-head">
        <div>
          <H2 data-testid="waybill-title">{name}</H2>
          <StateTag state={waybill.state} />
        </div>
        <div className="jc-wb-detail-actions">
          {mayEdit && waybill.state === 0 && (
            <Button intent="primary" icon={<PlayIcon />} text={t('action.start')} onClick={() => setConfirming(1)}
              disabled={waybill.devices.length === 0} data-testid="waybill-start" />
          )}
          {mayEdit && waybill.state === 1 && (
            <Button intent="warning" icon={<StopIcon />} text={t('action.finish')} onClick={() => setConfirming(2)}
              data-testid="waybill-finish" />
          )}
          {mayEdit && waybill.state !== 2 && (
            <Button icon={<EditIcon />} text={t('edit')} onClick={() => setEditing(true)} data-testid="waybill-edit" />
          )}
          {mayRead && (
            <Button icon={<DocumentIcon />} text={t('action.pdf')} loading={downloading} onClick={pdf} data-testid="waybill-pdf" />
          )}
          {mayEdit && (
            <Button icon={<LinkIcon />} text={t('action.share')} onClick={() => setSharing(true)} data-testid="waybill-share" />
          )}
        </div>
      </div>
      <Card elevation={0}>
        <H4>{t('section.info')}</H4>
        <dl className="jc-wb-fields">
          {info.map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}
        </dl>
      </Card>
      <WaybillApproval waybill={waybill} />
      <Card elevation={0}>
        <H4>{t('section.devices')}</H4>
        {waybill.devices.length === 0 ? <p>{t('report.noDevices')}</p> : (
          <div className="jc-wb-detail-actions" data-testid="waybill-devices">
            {waybill.devices.map((d) => <Tag key={d.deviceId} minimal round data-testid="waybill-device">{d.deviceName}</Tag>)}
          </div>
        )}
      </Card>
      {mayRead && (
        <Card elevation={0}>
          <H4>{t('section.report')}</H4>
          {trip.data ? <TripReport trip={trip.data} /> : trip.isError ? <p>{t('error.load')}</p> : <Spinner />}
        </Card>
      )}
      <WaybillDrawer waybill={editing ? waybill : null} onClose={() => setEditing(false)} />
      <ShareDialog waybillId={id} isOpen={sharing} onClose={() => setSharing(false)} />
      <Alert isOpen={confirming !== null} intent={confirming === 2 ? 'warning' : 'primary'} cancelButtonText={t('cancel')}
        confirmButtonText={t(confirming === 2 ? 'action.finish' : 'action.start')} loading={setState.isPending}
        onCancel={() => setConfirming(null)} onConfirm={changeState} canEscapeKeyCancel>
        <p data-testid="waybill-state-confirm">{t(confirming === 2 ? 'action.finishConfirm' : 'action.startConfirm', { name })}</p>
      </Alert>
    </div>
  );
}
