import { Tag } from '@blueprintjs/core';
import { OfficeIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../api/assets';

/** The organization an asset belongs to, and "Read only" when the caller may not change it. */
export function OwnerTags({ asset }: { asset: Pick<Asset, 'organizationName' | 'changeable'> }) {
  const { t } = useTranslation('assets');
  return (
    <>
      {asset.organizationName && (
        <Tag minimal icon={<OfficeIcon />} className="jc-as-owner" data-testid="asset-organization">{asset.organizationName}</Tag>
      )}
      {!asset.changeable && <Tag minimal intent="warning" data-testid="asset-read-only">{t('readOnly')}</Tag>}
    </>
  );
}
