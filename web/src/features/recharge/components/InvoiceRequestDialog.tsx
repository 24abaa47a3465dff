/**
 * Request an invoice (issue 19): the caller's paid orders that no invoice covers yet, to tick (one
 * currency at a time: one invoice is in one currency), and one of their saved invoice details (the
 * default chosen first; new ones added in the invoice drawer). The server copies the details into
 * the request and says a refusal, shown here.
 */
import { Button, Callout, Checkbox, Classes, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Spinner } from '@blueprintjs/core';
import { AddIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '@/lib/http';
import { formatCents } from '@/lib/money';
import { notify } from '@/lib/notify';
import { formatInstant } from '@/lib/units';
import { useBills } from '../api/bills';
import { MAX_ORDERS_PER_INVOICE, useApplyInvoice, useInvoiceable, type InvoiceableOrder } from '../api/invoices';
import { billLabel, InvoiceDrawer } from '../InvoiceDrawer';

export interface InvoiceRequestDialogProps {
  isOpen: boolean;
  onClose(): void;
}

type RequestValues = { orderIds: number[]; billId: number | null };

export function InvoiceRequestDialog({ isOpen, onClose }: InvoiceRequestDialogProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeInvoices.request' });
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('title')} className="jc-invreq-dialog">
      {isOpen && <RequestForm onClose={onClose} />}
    </Dialog>
  );
}

function RequestForm({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation('recharge', { keyPrefix: 'rechargeInvoices.request' });
  const { t: tb } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const orders = useInvoiceable();
  const bills = useBills();
  const apply = useApplyInvoice();
  const [adding, setAdding] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const schema = useMemo(() => z.object({
    orderIds: z.array(z.number()).min(1, t('chooseOrders')).max(MAX_ORDERS_PER_INVOICE, t('tooMany', { max: MAX_ORDERS_PER_INVOICE })),
    billId: z.number().nullable().refine((id) => id !== null, t('chooseBill')),
  }), [t]);
  const { control, handleSubmit, setValue } = useForm<RequestValues>({
    resolver: zodResolver(schema), defaultValues: { orderIds: [], billId: null },
  });
  const chosen = useWatch({ control, name: 'orderIds' });
  const billId = useWatch({ control, name: 'billId' });
  const list = orders.data ?? [];
  const byId = new Map(list.map((order) => [order.orderId, order]));
  const currency = chosen.length ? byId.get(chosen[0]!)?.currency : undefined;
  const total = chosen.reduce((sum, id) => sum + (byId.get(id)?.amount ?? 0), 0);

  // The default bill, else the first, until the customer chooses.
  useEffect(() => {
    if (billId !== null || !bills.data?.length) return;
    const fallback = bills.data.find((bill) => bill.billDefaultStatus === 1) ?? bills.data[0]!;
    setValue('billId', fallback.billId);
  }, [billId, bills.data, setValue]);

  const submit = handleSubmit(({ orderIds, billId: bill }) => {
    setRefusal(null);
    apply.mutate({ orderIds, billId: bill! }, {
      onSuccess: () => {
        notify.success(t('done'));
        onClose();
      },
      onError: (error) => setRefusal(error instanceof ApiError ? error.message : t('refused')),
    });
  });
  const label = (order: InvoiceableOrder) => (
    <span className="jc-invreq-order">
      <span className="jc-mono">{order.orderCode}</span>
      <span className={Classes.TEXT_MUTED}>
        {order.orderDescription}
        {order.payTime ? ` · ${t('paidAt', { time: formatInstant(order.payTime, i18n.language, false) })}` : ''}
      </span>
      <strong>{formatCents(order.amount, order.currency, i18n.language)}</strong>
    </span>
  );

  // The drawer stays outside the form: its own form's submit would bubble here through the portal.
  return (
    <>
      <form onSubmit={(e) => void submit(e)} data-testid="invreq-form">
        <DialogBody>
          <Callout intent="primary" compact>{t('explain')}</Callout>
          <Controller name="orderIds" control={control} render={({ field, fieldState }) => (
            <FormGroup label={t('orders')} intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}
              className="jc-invreq-orders">
              {orders.isPending ? <Spinner size={24} /> : orders.isError ? (
                <Callout intent="danger" compact>{t('loadFailed')}</Callout>
              ) : list.length === 0 ? (
                <span className={Classes.TEXT_MUTED} data-testid="invreq-none">{t('none')}</span>
              ) : list.map((order) => {
                const other = currency !== undefined && order.currency !== currency;
                const checked = field.value.includes(order.orderId);
                return (
                  <Checkbox key={order.orderId} checked={checked} disabled={other && !checked} labelElement={label(order)}
                    title={other ? t('otherCurrency') : undefined} data-testid="invreq-order" data-order-code={order.orderCode}
                    onChange={(e) => field.onChange(e.currentTarget.checked
                      ? [...field.value, order.orderId] : field.value.filter((id) => id !== order.orderId))} />
                );
              })}
            </FormGroup>
          )} />
          <Controller name="billId" control={control} render={({ field, fieldState }) => (
            <FormGroup label={t('bill')} labelFor="invreq-bill" intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message}>
              <div className="jc-invreq-bill">
                {bills.data?.length ? (
                  <HTMLSelect id="invreq-bill" fill value={field.value ?? ''} data-testid="invreq-bill"
                    onChange={(e) => field.onChange(Number(e.currentTarget.value) || null)}
                    options={bills.data.map((bill) => ({ value: bill.billId, label: billLabel(bill, tb) }))} />
                ) : (
                  <span className={Classes.TEXT_MUTED}>{bills.isPending ? '…' : t('noBill')}</span>
                )}
                <Button icon={<AddIcon />} variant="minimal" intent="primary" text={t('addBill')} onClick={() => setAdding(true)}
                  data-testid="invreq-add-bill" />
              </div>
            </FormGroup>
          )} />
          {chosen.length > 0 && currency && (
            <p className="jc-invreq-total" data-testid="invreq-total">
              {t('total')}: <strong>{formatCents(total, currency, i18n.language)}</strong>
            </p>
          )}
          {refusal && <Callout intent="danger" title={t('refused')} data-testid="invreq-refusal">{refusal}</Callout>}
        </DialogBody>
        <DialogFooter actions={(
          <>
            <Button text={t('cancel')} onClick={onClose} />
            <Button type="submit" intent="primary" text={t('submit')} loading={apply.isPending} data-testid="invreq-submit" />
          </>
        )} />
      </form>
      <InvoiceDrawer isOpen={adding} onClose={() => setAdding(false)}
        onSaved={(bill) => setValue('billId', bill.billId, { shouldValidate: true })} />
    </>
  );
}
