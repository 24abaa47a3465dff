import { FormGroup, HTMLSelect, NonIdealState, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePackage, usePackages } from '../api/packages';
import { GiftForm } from './GiftForm';

/** The free gift of each package to new devices of its types (PayServicePresentation). */
export default function GiftPanel() {
  const { t } = useTranslation('catalogue');
  const packages = usePackages(1, 50);
  const rows = packages.data?.data ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const packageId = chosen ?? rows.find((row) => row.status === 1)?.id ?? rows[0]?.id ?? null;
  const detail = usePackage(packageId);
  if (packages.isPending) return <Spinner />;
  if (packageId === null) return <NonIdealState title={t('packages.none')} />;
  return (
    <div className="jc-cat-panel" data-testid="gift-panel">
      <FormGroup label={t('gift.package')} labelFor="gift-package">
        <HTMLSelect id="gift-package" value={packageId} onChange={(e) => setChosen(Number(e.currentTarget.value))}
          options={rows.map((row) => ({ value: row.id, label: `${row.packageName} (${row.packageCode})` }))}
          data-testid="gift-package" />
      </FormGroup>
      {detail.data ? <GiftForm key={packageId} detail={detail.data} /> : <Spinner />}
    </div>
  );
}
