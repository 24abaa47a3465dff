import { Alert, Button, H2 } from '@blueprintjs/core';
import { AddIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { AWAITING_REVIEW, CATALOGUE_PERMISSION, useDeletePurchase, type Purchase } from './api/offline';
import { PurchaseDrawer } from './components/PurchaseDrawer';
import { PurchaseList } from './components/PurchaseList';
import { RecordDrawer } from './components/RecordDrawer';
import './offline.css';

const PERMISSION = 'order.offlinebuy';

/** Offline purchases (/operation/offlinebuy): recorded for a customer's devices, found, read whole, exported; deleted before review. */
export default function OfflineBuyPage() {
  const { t } = useTranslation(['offline', 'app']);
  const held = usePermissions();
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  const [opened, setOpened] = useState<Purchase | null>(null);
  const [recording, setRecording] = useState(false);
  const [deleting, setDeleting] = useState<Purchase | null>(null);
  const remove = useDeletePurchase();

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.offlineId, {
      onSuccess: () => {
        notify.success(t('delete.done', { number: deleting.offlineId }));
        setDeleting(null);
        setOpened(null);
      },
      onError: () => setDeleting(null),
    });
  };

  return (
    <div className="jc-ol" data-testid="offline-buy-page">
      <header className="jc-ol-head">
        <H2>{t('app:route.offlineBuy')}</H2>
        <p>{t('buy.subtitle')}</p>
      </header>
      <PurchaseList kind="buy" can={can} onOpen={setOpened} actions={can('add') && (
        <Button intent="primary" icon={<AddIcon />} text={t('record.open')} onClick={() => setRecording(true)} data-testid="ol-new" />
      )} />
      <PurchaseDrawer purchase={opened} canReadDetail={can('detail')} onClose={() => setOpened(null)}
        actions={(purchase) => purchase.status === AWAITING_REVIEW && can('delete') && (
          <Button intent="danger" icon={<TrashIcon />} text={t('delete.button')} onClick={() => setDeleting(purchase)}
            data-testid="ol-delete" />
        )} />
      <RecordDrawer isOpen={recording} canReadCatalogue={held.has(CATALOGUE_PERMISSION) && held.has(`${CATALOGUE_PERMISSION}:query`)}
        onClose={() => setRecording(false)} onRecorded={(purchase) => {
          setRecording(false);
          setOpened(purchase);
        }} />
      <Alert isOpen={deleting !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete.button')} loading={remove.isPending} onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete} canEscapeKeyCancel>
        <p data-testid="ol-delete-confirm">
          {t('delete.confirm', { number: deleting?.offlineId ?? 0, customer: deleting?.customerName ?? '', count: deleting?.deviceCount ?? 0 })}
        </p>
      </Alert>
    </div>
  );
}
