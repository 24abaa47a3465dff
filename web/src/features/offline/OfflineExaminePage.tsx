import { Button, Callout, H2 } from '@blueprintjs/core';
import { EndorsedIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissions } from '@/lib/permissions';
import { AWAITING_REVIEW, type Purchase, type PurchaseDetail } from './api/offline';
import { PurchaseDrawer } from './components/PurchaseDrawer';
import { PurchaseList } from './components/PurchaseList';
import { ReviewDialog } from './components/ReviewDialog';
import './offline.css';

const PERMISSION = 'order.offlineExamine';
/** The purchase's devices are read through the recorders' call (selectOfflineServiceList). */
const DETAIL = 'order.offlinebuy:detail';

/** The review of offline purchases (/operation/offlineExamine): those awaiting it, approved (every device recharged) or rejected. */
export default function OfflineExaminePage() {
  const { t } = useTranslation(['offline', 'app']);
  const held = usePermissions();
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  const [opened, setOpened] = useState<Purchase | null>(null);
  const [reviewing, setReviewing] = useState<Purchase | null>(null);
  const [reviewed, setReviewed] = useState<PurchaseDetail | null>(null);
  const open = (purchase: Purchase | null) => {
    setOpened(purchase);
    setReviewed(null);
  };

  return (
    <div className="jc-ol" data-testid="offline-examine-page">
      <header className="jc-ol-head">
        <H2>{t('app:route.offlineExamine')}</H2>
        <p>{t('examine.subtitle')}</p>
      </header>
      <PurchaseList kind="examine" can={can} initialStatus={AWAITING_REVIEW} onOpen={open} />
      <PurchaseDrawer purchase={opened} canReadDetail={held.has(DETAIL)} onClose={() => open(null)}
        notice={reviewed && reviewed.offlineId === opened?.offlineId && (
          <Callout intent={reviewed.status === 2 ? (reviewed.failedCount > 0 ? 'warning' : 'success') : 'none'}
            data-testid="ol-review-result">
            {reviewed.status === 2
              ? t('review.approved', { recharged: reviewed.rechargedCount, failed: reviewed.failedCount })
              : t('review.rejected')}
          </Callout>
        )}
        actions={(purchase) => purchase.status === AWAITING_REVIEW && can('edit') && (
          <Button intent="primary" icon={<EndorsedIcon />} text={t('review.button')} onClick={() => setReviewing(purchase)}
            data-testid="ol-review" />
        )} />
      <ReviewDialog purchase={reviewing} onClose={() => setReviewing(null)} onReviewed={(purchase) => {
        setReviewing(null);
        setReviewed(purchase);
      }} />
    </div>
  );
}
