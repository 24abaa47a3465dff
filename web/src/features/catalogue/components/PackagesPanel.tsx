import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, EditIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '@/lib/http/index';
import { usePermissions } from '@/lib/permissions';
import { setPackageEnabled, useCatalogueChange, usePackages, useTypes, type Package } from '../api/packages';
import { PackageEditor } from './PackageEditor';

const PERMISSION = 'order.servicePackage';

/** The packages: code, name, device types, levels, state; enable or stop one, open one to edit it
 * (/service/package/:id), or make a new one (/service/package/new). */
export default function PackagesPanel() {
  const { id } = useParams();
  if (id) return <PackageEditor packageId={id === 'new' ? null : Number(id)} />;
  return <PackageList />;
}

function PackageList() {
  const { t, i18n } = useTranslation('catalogue');
  const held = usePermissions();
  const navigate = useNavigate();
  const packages = usePackages(1, 50);
  const types = useTypes();
  const toggle = useCatalogueChange(({ id, enabled }: { id: number; enabled: boolean }) => setPackageEnabled(id, enabled));
  const [refusal, setRefusal] = useState<string | null>(null);
  const typeName = (typeId: number) => types.data?.find((type) => type.id === typeId)?.typeName ?? `#${typeId}`;
  const open = (target: number | 'new') => navigate({ pathname: `/service/package/${target}`, search: '?tab=packages' });

  const switchState = (row: Package) => {
    setRefusal(null);
    toggle.mutate({ id: row.id, enabled: row.status !== 1 }, {
      onError: (error) => setRefusal(error instanceof ApiError ? error.message : t('packages.failed')),
    });
  };

  if (packages.isPending) return <Spinner />;
  const rows = packages.data?.data ?? [];
  return (
    <div className="jc-cat-panel" data-testid="packages-panel">
      <div className="jc-cat-bar">
        <p>{t('packages.intro')}</p>
        {held.has(`${PERMISSION}:add`) && (
          <Button intent="primary" icon={<AddIcon />} text={t('packages.new')} onClick={() => open('new')}
            data-testid="package-new" />
        )}
      </div>
      {refusal && <Callout intent="danger" data-testid="package-refusal">{refusal}</Callout>}
      {rows.length === 0 ? <NonIdealState title={t('packages.none')} /> : (
        <div className="jc-cat-scroll">
          <HTMLTable compact striped className="jc-cat-table" data-testid="package-table">
            <thead>
              <tr>
                <th>{t('packages.code')}</th><th>{t('packages.name')}</th><th>{t('packages.types')}</th>
                <th>{t('packages.levels')}</th><th>{t('packages.state')}</th><th>{t('packages.enableTime')}</th><th />
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="package-row">
                  <td className="jc-cat-code">{row.packageCode}</td>
                  <td>{row.packageName}{row.sold && <Tag minimal className="jc-cat-tag">{t('packages.sold')}</Tag>}</td>
                  <td>{row.deviceTypeIds.map(typeName).join(', ') || '—'}</td>
                  <td>{row.levelCount}</td>
                  <td>
                    <Tag intent={row.status === 1 ? 'success' : 'none'} data-testid="package-state">
                      {t(row.status === 1 ? 'packages.enabled' : 'packages.stopped')}
                    </Tag>
                  </td>
                  <td>{row.enableTime ? new Date(row.enableTime).toLocaleString(i18n.language) : '—'}</td>
                  <td className="jc-cat-actions">
                    {held.has(`${PERMISSION}:${row.status === 1 ? 'disable' : 'enable'}`) && (
                      <Button size="small" variant="outlined" intent={row.status === 1 ? 'warning' : 'success'}
                        text={t(row.status === 1 ? 'packages.stop' : 'packages.enable')} loading={toggle.isPending}
                        onClick={() => switchState(row)} data-testid="package-switch" />
                    )}
                    <Button size="small" variant="minimal" icon={<EditIcon />} text={t('packages.edit')}
                      onClick={() => open(row.id)} data-testid="package-edit" />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </div>
  );
}
