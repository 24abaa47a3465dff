import { Switch } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { useSetAssetState, type Asset } from '../api/assets';

/** An asset's enabled state; switching it switches its devices and their alarm rules alike. */
export function StateSwitch({ asset }: { asset: Pick<Asset, 'id' | 'assetName' | 'enabled' | 'changeable'> }) {
  const { t } = useTranslation('assets');
  const held = usePermissions();
  const state = useSetAssetState();
  const may = asset.changeable && held.has(asset.enabled ? 'asset.list:disable' : 'asset.list:enable');
  const toggle = () => state.mutate({ id: asset.id, enabled: !asset.enabled }, {
    onSuccess: (saved) => notify.success(t(saved.enabled ? 'enabledNotice' : 'disabledNotice', { name: saved.assetName })),
  });
  return (
    <Switch className="jc-as-switch" checked={asset.enabled} disabled={!may || state.isPending} onChange={toggle}
      label={t(asset.enabled ? 'state.enabled' : 'state.disabled')} data-testid="asset-state"
      aria-label={t('state.switch', { name: asset.assetName })} />
  );
}
