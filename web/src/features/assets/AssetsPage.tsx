import { Alert, Button, Card, H2, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, CubeIcon, EditIcon, ErrorIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { NameSearch } from '@/components/NameSearch';
import { PagerFooter } from '@/components/PagerFooter';
import { notify } from '@/lib/notify';
import { usePaging } from '@/hooks/usePaging';
import { usePermissions } from '@/lib/permissions';
import { ASSET_LIMITS, useAssets, useDeleteAsset, type Asset } from './api/assets';
import { AssetDialog } from './components/AssetDialog';
import { OwnerTags } from './components/OwnerTags';
import { StateSwitch } from './components/StateSwitch';
import './assets.css';

export const detailPath = (id: number) => `/asset/detail/${id}`;

/** Assets: the account's cold things, searched by name or number, made, edited, switched and deleted. */
export default function AssetsPage() {
  const { t } = useTranslation(['assets', 'app']);
  const held = usePermissions();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const paging = usePaging();
  const query = useAssets(search, paging.start, paging.pageSize);
  const remove = useDeleteAsset();
  const [editing, setEditing] = useState<Asset | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Asset | null>(null);
  const page = query.data;

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: ({ released }) => notify.success(t('deleted', { name: deleting.assetName, count: released })),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <div className="jc-as" data-testid="assets-page">
      <header className="jc-as-head">
        <H2>{t('app:route.assetList')}</H2>
        <p>{t('subtitle', { max: ASSET_LIMITS.devices })}</p>
      </header>
      <Card className="jc-as-card" elevation={0}>
        <div className="jc-as-toolbar">
          <NameSearch value={search} onSearch={(value) => { setSearch(value); paging.restart(); }}
            placeholder={t('searchPlaceholder')} searchText={t('search')} clearLabel={t('clear')} testId="asset-search" />
          <span className="jc-as-spacer" />
          {held.has('asset.list:add') && (
            <Button intent="primary" icon={<AddIcon />} text={t('add')} onClick={() => setEditing('new')} data-testid="asset-add" />
          )}
        </div>
        {page === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
        ) : page.data.length === 0 ? (
          <NonIdealState icon={<CubeIcon />} title={t(search ? 'noMatch' : 'empty')}
            description={search ? undefined : t('emptyHint')} />
        ) : (
          <div className="jc-as-table-wrap">
            <HTMLTable className="jc-as-table" striped data-testid="assets-table">
              <thead>
                <tr>
                  <th>{t('column.name')}</th>
                  <th className="jc-as-wide">{t('column.type')}</th>
                  <th className="jc-as-wide">{t('column.number')}</th>
                  <th className="jc-as-wide">{t('column.brand')}</th>
                  <th className="jc-as-wide">{t('column.model')}</th>
                  <th>{t('column.devices')}</th>
                  <th>{t('column.state')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {page.data.map((asset) => (
                  <tr key={asset.id} data-testid="asset-row" data-asset-name={asset.assetName}
                    className={asset.enabled ? undefined : 'is-disabled'}>
                    <td className="jc-as-name-cell">
                      <Link to={detailPath(asset.id)} className="jc-as-name" data-testid="asset-open">{asset.assetName}</Link>
                      <OwnerTags asset={asset} />
                    </td>
                    <td className="jc-as-wide jc-as-text">{asset.assetType}</td>
                    <td className="jc-as-wide jc-as-text">{asset.assetNumber}</td>
                    <td className="jc-as-wide jc-as-text">{asset.brand}</td>
                    <td className="jc-as-wide jc-as-text">{asset.model}</td>
                    <td>
                      <Tag minimal round data-testid="asset-device-count">
                        {t('count.devices', { count: asset.deviceCount, max: ASSET_LIMITS.devices })}
                      </Tag>
                    </td>
                    <td><StateSwitch asset={asset} /></td>
                    <td className="jc-as-actions">
                      {held.has('asset.list:edit') && asset.changeable && (
                        <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                          onClick={() => setEditing(asset)} data-testid="asset-edit" />
                      )}
                      {held.has('asset.list:delete') && asset.changeable && (
                        <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')} aria-label={t('delete')}
                          onClick={() => setDeleting(asset)} data-testid="asset-delete" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      </Card>
      <AssetDialog asset={editing} onClose={() => setEditing(null)}
        onSaved={(saved) => { if (editing === 'new') void navigate(detailPath(saved.id)); }} />
      <Alert isOpen={deleting !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete')} loading={remove.isPending} onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete} canEscapeKeyCancel>
        <p data-testid="asset-delete-confirm">
          {t('deleteConfirm', { name: deleting?.assetName ?? '', count: deleting?.deviceCount ?? 0 })}
        </p>
      </Alert>
    </div>
  );
}
