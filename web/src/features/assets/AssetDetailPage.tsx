import { Alert, Button, Callout, Card, Classes, H2, H4, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ArrowLeftIcon, CubeIcon, EditIcon, LinkIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { detailHref } from '@/lib/deviceListQuery';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { formatInstant } from '@/lib/units';
import { ASSET_LIMITS, useAsset, useDeleteAsset, useUnbindDevices, type BoundDevice } from './api/assets';
import { AssetDialog } from './components/AssetDialog';
import { BindDialog } from './components/BindDialog';
import { OwnerTags } from './components/OwnerTags';
import { StateSwitch } from './components/StateSwitch';
import './assets.css';

function parseId(raw: string | undefined): number | null {
  return raw && /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) < 2 ** 31 ? Number(raw) : null;
}

/** One asset: its particulars, custom attributes and devices, which are bound and unbound here. */
export default function AssetDetailPage() {
  const { t, i18n } = useTranslation('assets');
  const held = usePermissions();
  const navigate = useNavigate();
  const id = parseId(useParams().id);
  const query = useAsset(id);
  const unbind = useUnbindDevices();
  const remove = useDeleteAsset();
  const [editing, setEditing] = useState(false);
  const [binding, setBinding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const back = (
    <Link to="/asset/list" className="jc-as-back" data-testid="asset-back"><ArrowLeftIcon /> {t('back')}</Link>
  );
  if (query.data === undefined) {
    return (
      <div className="jc-as" data-testid="asset-detail-page">
        {back}
        {query.isError || id === null
          ? <NonIdealState icon={<CubeIcon />} title={t('missing')} data-testid="asset-missing" />
          : <Spinner />}
      </div>
    );
  }
  const asset = query.data;
  const mayEdit = held.has('asset.list:edit') && asset.changeable;
  const particulars: [string, string | null][] = [
    [t('field.type'), asset.assetType], [t('field.number'), asset.assetNumber], [t('field.brand'), asset.brand],
    [t('field.model'), asset.model], [t('field.volume'), asset.volume],
  ];
  const doUnbind = (device: BoundDevice) => unbind.mutate({ id: asset.id, deviceIds: [device.deviceId] }, {
    onSuccess: () => notify.success(t('unbound', { name: device.deviceName })),
  });
  const confirmDelete = () => remove.mutate(asset.id, {
    onSuccess: ({ released }) => {
      notify.success(t('deleted', { name: asset.assetName, count: released }));
      void navigate('/asset/list');
    },
    onSettled: () => setDeleting(false),
  });

  return (
    <div className="jc-as" data-testid="asset-detail-page">
      {back}
      <header className="jc-as-detail-head">
        <div className="jc-as-detail-title">
          <H2 data-testid="asset-title">{asset.assetName}</H2>
          <div className="jc-as-detail-tags">
            <StateSwitch asset={asset} />
            <Tag minimal round>{t('count.devices', { count: asset.deviceCount, max: ASSET_LIMITS.devices })}</Tag>
            <OwnerTags asset={asset} />
          </div>
        </div>
        <div className="jc-as-detail-actions">
          {mayEdit && <Button icon={<EditIcon />} text={t('edit')} onClick={() => setEditing(true)} data-testid="asset-edit" />}
          {held.has('asset.list:delete') && asset.changeable && (
            <Button intent="danger" variant="outlined" icon={<TrashIcon />} text={t('delete')} onClick={() => setDeleting(true)}
              data-testid="asset-delete" />
          )}
        </div>
      </header>
      {!asset.enabled && <Callout intent="warning" data-testid="asset-disabled-note">{t('disabledNote')}</Callout>}
      <div className="jc-as-detail-grid">
        <Card elevation={0} className="jc-as-card">
          <H4>{t('particulars')}</H4>
          <dl className="jc-as-fields" data-testid="asset-fields">
            {particulars.map(([label, value]) => (
              <div key={label}><dt>{label}</dt><dd>{value ?? '—'}</dd></div>
            ))}
            <div><dt>{t('field.created')}</dt><dd>{formatInstant(asset.createdAt, i18n.language, false)}</dd></div>
            {asset.remark && <div className="jc-as-field-wide"><dt>{t('field.remark')}</dt><dd>{asset.remark}</dd></div>}
          </dl>
        </Card>
        <Card elevation={0} className="jc-as-card">
          <H4>{t('field.customs')}</H4>
          {asset.customs.length === 0 ? <p className={Classes.TEXT_MUTED}>{t('noCustoms')}</p> : (
            <dl className="jc-as-fields" data-testid="asset-customs-list">
              {asset.customs.map((pair) => <div key={pair.key}><dt>{pair.key}</dt><dd>{pair.value || '—'}</dd></div>)}
            </dl>
          )}
        </Card>
      </div>
      <Card elevation={0} className="jc-as-card" data-testid="asset-devices">
        <div className="jc-as-toolbar">
          <H4>{t('devices')}</H4>
          <span className="jc-as-spacer" />
          {mayEdit && (
            <Button intent="primary" icon={<LinkIcon />} text={t('bindDevices')} disabled={asset.deviceCount >= ASSET_LIMITS.devices}
              title={asset.deviceCount >= ASSET_LIMITS.devices ? t('limit') : undefined}
              onClick={() => setBinding(true)} data-testid="asset-bind" />
          )}
        </div>
        {asset.devices.length === 0 ? (
          <NonIdealState icon={<CubeIcon />} title={t('noDevices')} description={t('noDevicesHint', { max: ASSET_LIMITS.devices })} />
        ) : (
          <div className="jc-as-table-wrap">
            <HTMLTable className="jc-as-table" striped data-testid="asset-devices-table">
              <thead>
                <tr>
                  <th>{t('column.device')}</th>
                  <th className="jc-as-wide">{t('column.guid')}</th>
                  <th className="jc-as-wide">{t('column.deviceType')}</th>
                  <th>{t('column.state')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {asset.devices.map((device) => (
                  <tr key={device.deviceId} data-testid="asset-device-row" data-device-name={device.deviceName}>
                    <td className="jc-as-text"><Link to={detailHref(device.deviceId)}>{device.deviceName}</Link></td>
                    <td className="jc-as-wide">{device.deviceGuid}</td>
                    <td className="jc-as-wide jc-as-text">{device.deviceTypeName}</td>
                    <td>
                      <span className="jc-as-tags">
                        <Tag minimal round intent={device.enabled ? 'success' : 'none'} data-testid="asset-device-state">
                          {t(device.enabled ? 'state.enabled' : 'state.disabled')}
                        </Tag>
                        <Tag minimal round intent={device.online ? 'primary' : 'none'}>{t(device.online ? 'online' : 'offline')}</Tag>
                        {device.alarming && <Tag minimal round intent="danger">{t('alarming')}</Tag>}
                      </span>
                    </td>
                    <td className="jc-as-actions">
                      {mayEdit && (
                        <Button variant="minimal" text={t('unbind')} loading={unbind.isPending && unbind.variables?.deviceIds[0] === device.deviceId}
                          onClick={() => doUnbind(device)} data-testid="asset-unbind" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
      </Card>
      <AssetDialog asset={editing ? asset : null} onClose={() => setEditing(false)} />
      <BindDialog asset={asset} isOpen={binding} onClose={() => setBinding(false)} />
      <Alert isOpen={deleting} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete')} loading={remove.isPending} onCancel={() => setDeleting(false)}
        onConfirm={confirmDelete} canEscapeKeyCancel>
        <p data-testid="asset-delete-confirm">{t('deleteConfirm', { name: asset.assetName, count: asset.deviceCount })}</p>
      </Alert>
    </div>
  );
}
