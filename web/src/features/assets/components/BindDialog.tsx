import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DevicePicker } from '@/components/DevicePicker';
import { ApiError } from '@/lib/http/index';
import { notify } from '@/lib/notify';
import { ASSET_LIMITS, useBindDevices, type AssetDetail } from '../api/assets';

interface BindDialogProps {
  asset: AssetDetail;
  isOpen: boolean;
  onClose: () => void;
}

/** Picks devices of the caller's (found on the server by name) to put in the asset, up to five in all. */
export function BindDialog({ asset, isOpen, onClose }: BindDialogProps) {
  const { t } = useTranslation('assets');
  return (
    <Dialog isOpen={isOpen} onClose={onClose} className="jc-as-dialog" title={t('bindTitle', { name: asset.assetName })}>
      {isOpen && <BindBody asset={asset} onDone={onClose} />}
    </Dialog>
  );
}

function BindBody({ asset, onDone }: { asset: AssetDetail; onDone: () => void }) {
  const { t } = useTranslation('assets');
  const bind = useBindDevices();
  const bound = new Set(asset.devices.map((d) => d.deviceId));
  const [chosen, setChosen] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const fresh = chosen.filter((id) => !bound.has(id));
  const room = ASSET_LIMITS.devices - asset.deviceCount;
  const over = fresh.length > room;
  const submit = () => {
    setError(null);
    bind.mutate({ id: asset.id, deviceIds: fresh }, {
      onSuccess: () => {
        notify.success(t('bound', { count: fresh.length }));
        onDone();
      },
      onError: (e) => setError(e instanceof ApiError || e instanceof Error ? e.message : t('error.bind')),
    });
  };
  return (
    <>
      <DialogBody>
        <p className="jc-as-muted" data-testid="asset-bind-room">{t('bindRoom', { count: room, max: ASSET_LIMITS.devices })}</p>
        <DevicePicker value={chosen} onChange={setChosen} knownNames={{}} testId="asset-picker" />
        {over && <Callout intent="warning" className="jc-as-callout" data-testid="asset-bind-over">{t('limit')}</Callout>}
        {error && <Callout intent="danger" className="jc-as-callout" data-testid="asset-bind-error">{error}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button intent="primary" text={t('bind')} disabled={fresh.length === 0 || over} loading={bind.isPending}
          onClick={submit} data-testid="asset-bind-save" />
      </>} />
    </>
  );
}
