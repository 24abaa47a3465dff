import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Radio, RadioGroup } from '@blueprintjs/core';
import { ExportIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { failureText } from '@/app/effects';
import { useFdaRequired, useSigning } from '@/components/SignatureDialog';
import type { DeviceDetail } from '@/lib/api/devices';
import { EXPORT_FORMATS, useCreateExport, type DeviceListExportRequest, type ExportFormat } from '@/lib/api/exports';
import { CancelledError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { QUICK_RANGES, rangeBounds, type RangeKey } from '../ranges';
import './manage.css';

const DOWNLOADS = '/consumer/download';

/** What the export button needs of the device: its id and name, and whose records it holds (FDA mode). */
export type ExportedDevice = Pick<DeviceDetail, 'deviceId' | 'deviceName' | 'organizationId' | 'ownerId'>;

/**
 * A device's readings over one of the chart's quick ranges, as CSV, XLSX or a PDF report. Where FDA
 * mode is on for the device (its switch says, else the server's 428), the export is signed by its
 * author in the signature dialog (meaning authored, or an endorsement that covers exports), and asked
 * for again with the signature.
 */
export function ExportDeviceButton({ device }: { /** The device to export. */ device: ExportedDevice }) {
  const { t } = useTranslation('devices');
  const held = usePermissions();
  const navigate = useNavigate();
  const create = useCreateExport();
  const signing = useSigning();
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState<RangeKey>('24h');
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  const fdaOn = useFdaRequired(device, open);
  if (!held.has('consumer.download')) return null;
  const submit = async () => {
    const { startTime, endTime } = rangeBounds(range);
    const body = { deviceId: device.deviceId, startTime, endTime, format };
    try {
      const created = await signing.signIfNeeded(
        { label: [device.deviceName, t(`chart.range.${range}`), t(`export.formats.${format}`)].join(' · '), intro: t('export.signIntro'),
          recordType: 'export', meanings: ['authored'], submitText: t('export.signSubmit') },
        (signature) => create.mutateAsync({ device: signature ? { ...body, signature } : body }),
        { required: fdaOn, key: `device:${device.deviceId}` },
      );
      if (created === null) return; // the signer cancelled: nothing was asked for
      notify.success(t('export.started'));
      setOpen(false);
      navigate(DOWNLOADS);
    } catch (error) {
      if (!(error instanceof CancelledError)) notify.error(failureText(error)); // too many in progress, a bad range
    }
  };
  return (
    <>
      <Button icon={<ExportIcon />} variant="outlined" text={t('export.open')} onClick={() => setOpen(true)}
        data-testid="device-export" />
      {signing.dialog}
      <Dialog isOpen={open} onClose={() => setOpen(false)} title={t('export.title')} icon={<ExportIcon />}
        className="jc-export-dialog">
        <DialogBody>
          <FormGroup label={t('chart.rangeLabel')} labelFor="jc-export-range">
            <HTMLSelect id="jc-export-range" fill value={range} onChange={(e) => setRange(e.currentTarget.value as RangeKey)}
              data-testid="export-range">
              {QUICK_RANGES.map((r) => <option key={r.key} value={r.key}>{t(`chart.range.${r.key}`)}</option>)}
            </HTMLSelect>
          </FormGroup>
          <RadioGroup label={t('export.format')} selectedValue={format} inline
            onChange={(e) => setFormat(e.currentTarget.value as ExportFormat)}>
            {EXPORT_FORMATS.map((f) => <Radio key={f} value={f} label={t(`export.formats.${f}`)} data-testid={`export-format-${f}`} />)}
          </RadioGroup>
          <p className="jc-export-note">{t('export.note')}</p>
        </DialogBody>
        <DialogFooter actions={(
          <>
            <Button text={t('info.cancel')} onClick={() => setOpen(false)} />
            <Button intent="primary" icon={<ExportIcon />} text={t('export.submit')} loading={create.isPending}
              onClick={() => void submit()} data-testid="export-submit" />
          </>
        )} />
      </Dialog>
    </>
  );
}

/** The device list with its filters (every page) as an XLSX file in the download centre. */
export function ExportListButton({ filters }: { /** The list's filters, as Device/page takes them. */ filters: DeviceListExportRequest }) {
  const { t } = useTranslation('devices');
  const held = usePermissions();
  const navigate = useNavigate();
  const create = useCreateExport();
  if (!held.has('device.list:export') || !held.has('consumer.download')) return null;
  const submit = async () => {
    try {
      await create.mutateAsync({ list: filters });
      notify.success(t('export.started'));
      navigate(DOWNLOADS);
    } catch {
      // shown by the client
    }
  };
  return (
    <Button icon={<ExportIcon />} variant="outlined" text={t('export.list')} loading={create.isPending}
      onClick={() => void submit()} data-testid="device-list-export" />
  );
}
