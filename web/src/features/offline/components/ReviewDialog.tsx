import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { TickIcon, CrossIcon, WarningSignIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sortError } from '@/lib/serverErrors';
import { OFFLINE_LIMITS, useReviewPurchase, type Purchase, type PurchaseDetail } from '../api/offline';
import { contentText } from '../content';

interface ReviewDialogProps {
  /** The purchase to review; null: closed. */
  purchase: Purchase | null;
  onClose: () => void;
  /** Reviewed: the purchase as it now is (approved with each device's outcome, or rejected). */
  onReviewed: (purchase: PurchaseDetail) => void;
}

/**
 * Approve or reject, with an optional note. Approving recharges every device at once and cannot
 * be undone: a second step says how many devices it recharges before it is done.
 */
export function ReviewDialog({ purchase, onClose, onReviewed }: ReviewDialogProps) {
  const { t } = useTranslation('offline');
  return (
    <Dialog isOpen={purchase !== null} onClose={onClose} className="jc-ol-dialog"
      title={purchase ? t('review.title', { number: purchase.offlineId }) : ''}>
      {purchase && <ReviewBody purchase={purchase} onClose={onClose} onReviewed={onReviewed} />}
    </Dialog>
  );
}

function ReviewBody({ purchase, onClose, onReviewed }: { purchase: Purchase } & Omit<ReviewDialogProps, 'purchase'>) {
  const { t } = useTranslation('offline');
  const review = useReviewPurchase();
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const decide = (approve: boolean) => {
    setRefusal(null);
    review.mutate({ offlineId: purchase.offlineId, approve, note }, {
      onSuccess: onReviewed,
      onError: (error) => {
        setConfirming(false);
        setRefusal(sortError(error, [], {}, t).form);
      },
    });
  };
  return (
    <>
      <DialogBody>
        <p className="jc-ol-review-what">
          {t('review.what', { customer: purchase.customerName, content: contentText(t, purchase) })}
        </p>
        {confirming ? (
          <Callout intent="warning" icon={<WarningSignIcon />} data-testid="ol-approve-confirm">
            {t('review.confirm', { count: purchase.deviceCount })}
          </Callout>
        ) : (
          <FormGroup label={t('review.note')} labelFor="ol-note" helperText={t('review.noteHint')}>
            <TextArea id="ol-note" fill rows={3} value={note} maxLength={OFFLINE_LIMITS.remark}
              onChange={(e) => setNote(e.currentTarget.value)} data-testid="ol-note" />
          </FormGroup>
        )}
        {refusal && <Callout intent="danger" title={t('review.refused')} data-testid="ol-refusal">{refusal}</Callout>}
      </DialogBody>
      <DialogFooter actions={confirming ? (
        <>
          <Button text={t('review.back')} onClick={() => setConfirming(false)} disabled={review.isPending} />
          <Button intent="success" icon={<TickIcon />} text={t('review.approveNow', { count: purchase.deviceCount })}
            loading={review.isPending} onClick={() => decide(true)} data-testid="ol-approve-confirmed" />
        </>
      ) : (
        <>
          <Button text={t('cancel')} onClick={onClose} disabled={review.isPending} />
          <Button intent="danger" icon={<CrossIcon />} text={t('review.reject')} loading={review.isPending}
            onClick={() => decide(false)} data-testid="ol-reject" />
          <Button intent="success" icon={<TickIcon />} text={t('review.approve')} disabled={review.isPending}
            onClick={() => setConfirming(true)} data-testid="ol-approve" />
        </>
      )} />
    </>
  );
}
