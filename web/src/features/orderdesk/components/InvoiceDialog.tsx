import {
  Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, InputGroup, Radio, RadioGroup, TextArea,
} from '@blueprintjs/core';
import { DownloadIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DELIVERY, downloadInvoice, INVOICE_STATUS, invoiceHolder } from '@/lib/api/invoices';
import { formatCents } from '@/lib/money';
import { notify } from '@/lib/notify';
import { saveFile } from '@/lib/saveFile';
import { showError } from '@/lib/serverErrors';
import { formatInstant } from '@/lib/units';
import { INVOICE_LIMITS, useDecideInvoice, type DeskInvoice } from '../api/invoices';

interface InvoiceDialogProps {
  /** The request opened; null: closed. */
  invoice: DeskInvoice | null;
  /** The operator may issue and reject (order.recharge:edit). */
  canEdit: boolean;
  /** The operator may download an issued invoice's PDF (order.recharge:detail). */
  canDownload: boolean;
  onClose: () => void;
}

/** One invoice request whole: its orders and bill, and (while it waits) issuing or rejecting it. */
export function InvoiceDialog({ invoice, canEdit, canDownload, onClose }: InvoiceDialogProps) {
  const { t } = useTranslation('orderdesk');
  return (
    <Dialog isOpen={invoice !== null} onClose={onClose} className="jc-od-dialog jc-inv-dialog"
      title={invoice ? t('invoices.dialog.title', { id: invoice.invoiceId }) : ''}>
      {invoice && <InvoiceBody key={invoice.invoiceId} invoice={invoice} canEdit={canEdit} canDownload={canDownload} onClose={onClose} />}
    </Dialog>
  );
}

function InvoiceBody({ invoice, canEdit, canDownload, onClose }: InvoiceDialogProps & { invoice: DeskInvoice }) {
  const { t, i18n } = useTranslation('orderdesk');
  const [rejecting, setRejecting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const waiting = invoice.status === INVOICE_STATUS.requested;
  const when = (iso: string | null) => (iso ? formatInstant(iso, i18n.language, false) : '—');
  const bill = invoice.bill;
  const download = async () => {
    setDownloading(true);
    try {
      const file = await downloadInvoice(invoice.invoiceId);
      saveFile(file.blob, file.fileName ?? invoice.fileName ?? `invoice-${invoice.invoiceId}.pdf`);
    } catch {
      // the HTTP client has said why
    } finally {
      setDownloading(false);
    }
  };
  const facts: [string, string | null][] = [
    [t('invoices.dialog.account'), invoice.userName],
    [t('invoices.dialog.amount'), formatCents(invoice.amount, invoice.currency, i18n.language)],
    [t('invoices.dialog.orders'), invoice.orders.map((o) => `${o.orderCode} (${formatCents(o.amount, invoice.currency, i18n.language)})`).join('\n')],
    [t('invoices.dialog.type'), t(`invoices.type.${bill.invoiceType}`)],
    [t('invoices.dialog.holder'), invoiceHolder(bill)],
    [t('invoices.dialog.taxNumber'), bill.taxNumber],
    [t('invoices.dialog.bank'), bill.bankDeposit],
    [t('invoices.dialog.recipient'), bill.billUserName],
    [t('invoices.dialog.phone'), bill.billPhone],
    [bill.billMode === 2 ? t('invoices.dialog.mail') : t('invoices.dialog.address'), bill.billMode === 2 ? bill.billMail : bill.billAddress],
    [t('invoices.dialog.requested'), when(invoice.requestTime)],
    [t('invoices.dialog.due'), when(invoice.dueTime)],
    [t('invoices.dialog.decided'), invoice.decidedTime ? `${when(invoice.decidedTime)} ${invoice.decidedBy ? t('invoices.dialog.decidedBy', { name: invoice.decidedBy }) : ''}` : null],
    [t('invoices.dialog.delivered'), invoice.delivery === DELIVERY.pdf ? t('invoices.dialog.deliveredPdf')
      : invoice.delivery === DELIVERY.mailbox ? t('invoices.dialog.deliveredMailbox') : null],
    [t('invoices.dialog.invoiceNumber'), invoice.invoiceNumber],
    [t('invoices.dialog.rejectReason'), invoice.rejectReason],
  ];
  return (
    <>
      <DialogBody>
        <dl className="jc-inv-fields" data-testid="inv-facts">
          {facts.filter(([, value]) => value).map(([label, value]) => (
            <div key={label} className={label === t('invoices.dialog.due') && invoice.overdue ? 'jc-inv-danger' : undefined}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {waiting && canEdit && (rejecting
          ? <RejectForm invoice={invoice} onBack={() => setRejecting(false)} onDone={onClose} />
          : <IssueForm invoice={invoice} onReject={() => setRejecting(true)} onDone={onClose} />)}
      </DialogBody>
      <DialogFooter actions={(
        <>
          {invoice.fileName && canDownload && (
            <Button icon={<DownloadIcon />} text={t('invoices.dialog.download')} loading={downloading}
              onClick={() => void download()} data-testid="inv-download" />
          )}
          <Button text={t('invoices.dialog.close')} onClick={onClose} />
        </>
      )} />
    </>
  );
}

type IssueValues = { how: 'pdf' | 'mailbox'; file: File | null; invoiceNumber: string };

function IssueForm({ invoice, onReject, onDone }: { invoice: DeskInvoice; onReject: () => void; onDone: () => void }) {
  const { t } = useTranslation('orderdesk');
  const schema = useMemo(() => z.object({
    how: z.enum(['pdf', 'mailbox']),
    file: z.instanceof(File).nullable(),
    invoiceNumber: z.string().trim().max(INVOICE_LIMITS.invoiceNumber, t('invoices.issue.numberTooLong', { max: INVOICE_LIMITS.invoiceNumber })),
  }).superRefine((values, ctx) => {
    if (values.how !== 'pdf') return;
    const file = values.file;
    const problem = !file ? 'fileRequired' : !/\.pdf$/i.test(file.name) && file.type !== 'application/pdf' ? 'notPdf'
      : file.size > INVOICE_LIMITS.pdfBytes ? 'tooLarge' : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['file'], message: t(`invoices.issue.${problem}`) });
  }), [t]);
  const decide = useDecideInvoice();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { control, handleSubmit, setError, watch } = useForm<IssueValues>({
    resolver: zodResolver(schema), defaultValues: { how: 'pdf', file: null, invoiceNumber: '' },
  });
  const how = watch('how');
  const submit = handleSubmit(({ how: chosen, file, invoiceNumber }) => {
    setRefusal(null);
    const number = invoiceNumber.trim() || undefined;
    const decision = chosen === 'pdf' && file
      ? { kind: 'pdf' as const, invoiceId: invoice.invoiceId, file, invoiceNumber: number }
      : { kind: 'mailbox' as const, invoiceId: invoice.invoiceId, invoiceNumber: number };
    decide.mutate(decision, {
      onSuccess: () => {
        notify.success(t('invoices.issue.done', { id: invoice.invoiceId }));
        onDone();
      },
      onError: (error) => setRefusal(showError(error, setError, ['file', 'invoiceNumber'] as const, {}, t)),
    });
  });
  return (
    <form className="jc-inv-form" onSubmit={(e) => void submit(e)} data-testid="inv-issue-form">
      <Controller name="how" control={control} render={({ field }) => (
        <RadioGroup label={t('invoices.issue.how')} selectedValue={field.value} name="inv-how"
          onChange={(e) => field.onChange(e.currentTarget.value)}>
          <Radio value="pdf" label={t('invoices.issue.pdf')} data-testid="inv-how-pdf" />
          <Radio value="mailbox" label={t('invoices.issue.mailbox')} data-testid="inv-how-mailbox" />
        </RadioGroup>
      )} />
      {how === 'pdf' && (
        <Controller name="file" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('invoices.issue.file')} intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
            <FileInput fill text={field.value?.name ?? t('invoices.issue.choose')} buttonText={t('invoices.issue.browse')}
              inputProps={{ accept: '.pdf,application/pdf', 'aria-label': t('invoices.issue.file') }}
              onInputChange={(e) => field.onChange((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
              data-testid="inv-file" />
          </FormGroup>
        )} />
      )}
      <Controller name="invoiceNumber" control={control} render={({ field: { ref, ...field }, fieldState }) => (
        <FormGroup label={t('invoices.issue.number')} labelFor="inv-number" intent={fieldState.error ? 'danger' : 'none'}
          helperText={fieldState.error?.message}>
          <InputGroup {...field} id="inv-number" inputRef={ref} maxLength={INVOICE_LIMITS.invoiceNumber}
            intent={fieldState.error ? 'danger' : 'none'} data-testid="inv-number" />
        </FormGroup>
      )} />
      {refusal && <Callout intent="danger" title={t('invoices.issue.refused')} data-testid="inv-refusal">{refusal}</Callout>}
      <div className="jc-od-filter-actions">
        <Button type="submit" intent="primary" text={t('invoices.issue.submit')} loading={decide.isPending} data-testid="inv-issue" />
        <Button intent="danger" variant="minimal" text={t('invoices.reject.button')} onClick={onReject} data-testid="inv-reject" />
      </div>
    </form>
  );
}

function RejectForm({ invoice, onBack, onDone }: { invoice: DeskInvoice; onBack: () => void; onDone: () => void }) {
  const { t } = useTranslation('orderdesk');
  const schema = useMemo(() => z.object({
    reason: z.string().trim().min(1, t('invoices.reject.required'))
      .max(INVOICE_LIMITS.reason, t('invoices.reject.tooLong', { max: INVOICE_LIMITS.reason })),
  }), [t]);
  const decide = useDecideInvoice();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<{ reason: string }>({
    resolver: zodResolver(schema), mode: 'onChange', defaultValues: { reason: '' },
  });
  const submit = handleSubmit(({ reason }) => {
    setRefusal(null);
    decide.mutate({ kind: 'reject', invoiceId: invoice.invoiceId, reason: reason.trim() }, {
      onSuccess: () => {
        notify.success(t('invoices.reject.done', { id: invoice.invoiceId }));
        onDone();
      },
      onError: (error) => setRefusal(showError(error, setError, ['reason'] as const, {}, t)),
    });
  });
  return (
    <form className="jc-inv-form" onSubmit={(e) => void submit(e)} data-testid="inv-reject-form">
      <Controller name="reason" control={control} render={({ field: { ref, ...field }, fieldState }) => (
        <FormGroup label={t('invoices.reject.reason')} labelFor="inv-reason" intent={fieldState.error ? 'danger' : 'none'}
          helperText={fieldState.error?.message}>
          <TextArea {...field} id="inv-reason" inputRef={ref} fill rows={3} maxLength={INVOICE_LIMITS.reason}
            intent={fieldState.error ? 'danger' : 'none'} data-testid="inv-reason" />
        </FormGroup>
      )} />
      {refusal && <Callout intent="danger" title={t('invoices.reject.refused')} data-testid="inv-refusal">{refusal}</Callout>}
      <div className="jc-od-filter-actions">
        <Button type="submit" intent="danger" text={t('invoices.reject.submit')} loading={decide.isPending} data-testid="inv-reject-submit" />
        <Button text={t('invoices.reject.back')} onClick={onBack} />
      </div>
    </form>
  );
}
