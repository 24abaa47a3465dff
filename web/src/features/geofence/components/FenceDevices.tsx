/** The devices a fence watches, chosen with the device picker: saved as binds and unbinds. */
import { Button, Callout, Dialog, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DevicePicker } from '@/components/DevicePicker';
import { useChangeDevices, useFence, type Fence, type FenceDetail } from '../api/fences';

export function FenceDevicesDialog({ fence, onClose }: { fence: Fence | null; onClose: () => void }) {
  const { t } = useTranslation('geofence');
  const detail = useFence(fence?.id ?? null);
  return (
    <Dialog isOpen={fence !== null} onClose={onClose} className="jc-gf-dialog" title={t('devicesTitle', { name: fence?.name ?? '' })}>
      {fence !== null && (detail.data ? <DevicesEditor fence={detail.data} onDone={onClose} />
        : detail.isError ? <DialogBody><Callout intent="danger">{t('error.load')}</Callout></DialogBody>
          : <DialogBody><Spinner /></DialogBody>)}
    </Dialog>
  );
}

function DevicesEditor({ fence, onDone }: { fence: FenceDetail; onDone: () => void }) {
  const { t } = useTranslation('geofence');
  const change = useChangeDevices();
  const [chosen, setChosen] = useState<number[]>(fence.deviceIds);
  const [failure, setFailure] = useState<string | null>(null);
  const save = () => {
    const before = new Set(fence.deviceIds);
    const after = new Set(chosen);
    change.mutate({ id: fence.id, added: chosen.filter((id) => !before.has(id)), removed: fence.deviceIds.filter((id) => !after.has(id)) }, {
      onSuccess: onDone,
      onError: (error) => setFailure(error instanceof Error ? error.message : t('error.save')),
    });
  };
  return (
    <>
      <DialogBody>
        <p className="jc-gf-hint">{t('devicesHint')}</p>
        <DevicePicker value={chosen} onChange={setChosen} knownNames={{}} testId="fence-picker" />
        {failure && <Callout intent="danger" data-testid="fence-devices-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button intent="primary" text={t('save')} loading={change.isPending} onClick={save} disabled={!fence.changeable}
          data-testid="fence-devices-save" />
      </>} />
    </>
  );
}
