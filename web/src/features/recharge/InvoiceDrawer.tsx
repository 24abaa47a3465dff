import {
  Button,
  Callout,
  Checkbox,
  Classes,
  Drawer,
  FormGroup,
  HTMLSelect,
  InputGroup,
  RadioGroup,
  Switch,
  type InputGroupProps,
} from '@blueprintjs/core';
import { AddIcon, DocumentIcon, EditIcon, ErrorIcon, FloppyDiskIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { editionConfig } from '@/lib/config';
import { ApiError, CancelledError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { BILL_MODES, INVOICE_TYPES, isEmailMode, useBills, useSaveBill, type Bill, type BillMode } from './api/bills';
import {
  invoiceSchema,
  invoiceValues,
  toBillBody,
  visibleFields,
  type InvoiceForm,
  type TextField,
} from './invoiceSchema';
import './alertDrawers.css';
import { LIVE_VALIDATION } from '@/lib/forms';
import { clearingEmoji } from '@/lib/clearEmoji';

export const INVOICE_DRAWER_WIDTH = 700;

export interface InvoiceDrawerProps {
  /** Whether the drawer is shown; the form starts afresh at each opening. */
  isOpen: boolean;
  /** The bill to edit; without one a new invoice is added (personal, by e-mail). */
  bill?: Bill;
  /** Closes the drawer (Cancel, Esc, the close button, and after a save). */
  onClose(): void;
  /** The saved bill, as the server returned it; called before `onClose`. */
  onSaved(bill: Bill): void;
}

/** The invoice drawer (700 wide): adds or edits invoice details kept for orders. */
export function InvoiceDrawer({ isOpen, bill, onClose, onSaved }: InvoiceDrawerProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      size={INVOICE_DRAWER_WIDTH}
      title={bill ? t('invoice.editTitle') : t('invoice.addTitle')}
      icon={<DocumentIcon />}
      className="jc-extra-drawer jc-invoice-drawer"
    >
      <InvoiceFormPanel key={bill?.billId ?? 'new'} bill={bill} onClose={onClose} onSaved={onSaved} />
    </Drawer>
  );
}

const FIELD_IDS: Record<TextField, string> = {
  companyName: 'jc-invoice-company',
  taxNumber: 'jc-invoice-tax',
  personalName: 'jc-invoice-personal',
  bankDeposit: 'jc-invoice-bank',
  billUserName: 'jc-invoice-recipient',
  billMail: 'jc-invoice-mail',
  billPhone: 'jc-invoice-phone',
  billAddress: 'jc-invoice-address',
};

function InvoiceFormPanel({ bill, onClose, onSaved }: Omit<InvoiceDrawerProps, 'isOpen'>) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const { edition } = editionConfig();
  const resolver = useMemo(() => zodResolver(invoiceSchema(t, edition)), [t, edition]);
  const form = useForm<InvoiceForm>({ ...LIVE_VALIDATION, resolver, defaultValues: invoiceValues(bill), shouldFocusError: false });
  const save = useSaveBill();
  const [failure, setFailure] = useState<string | null>(null);
  const invoiceType = useWatch({ control: form.control, name: 'invoiceType' });
  const billMode = useWatch({ control: form.control, name: 'billMode' });
  const shown = visibleFields(invoiceType, billMode);
  // A postal bill saved in an older mode (3, 4) keeps it; a new postal choice is mode 1.
  const postalMode: BillMode = isEmailMode(billMode) ? (bill && !isEmailMode(bill.billMode) ? (bill.billMode as BillMode) : BILL_MODES.address) : billMode;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const body = toBillBody(values);
    let saved: Bill;
    try {
      saved = await save.mutateAsync(bill ? { ...body, billId: bill.billId } : body);
    } catch (error) {
      if (error instanceof CancelledError) return;
      const rest: string[] = [];
      if (error instanceof ApiError && error.errors) {
        for (const [name, messages] of Object.entries(error.errors)) {
          const text = messages.join(' ');
          if ((shown as string[]).includes(name)) {
            form.setError(name as TextField, { type: 'server', message: text }, { shouldFocus: true });
          } else {
            rest.push(text);
          }
        }
        if (rest.length === 0 && Object.keys(error.errors).length > 0) return;
      }
      setFailure(rest.length > 0 ? rest.join(' ') : error instanceof ApiError && error.message ? error.message : t('invoice.failed'));
      return;
    }
    notify.success(bill ? t('invoice.edited') : t('invoice.added'));
    onSaved(saved);
    onClose();
  }, (errors) => {
    // The first refused field as the form shows it (fields register in the order they first appear).
    const first = shown.find((name) => errors[name]);
    if (first) form.setFocus(first);
  });

  return (
    <form className="jc-invoice-form" onSubmit={submit} noValidate data-testid="invoice-form">
      <div className={Classes.DRAWER_BODY}>
        <div className="jc-drawer-section">
          {failure && (
            <Callout intent="danger" icon={<ErrorIcon />} role="alert" className="jc-form-failure" data-testid="invoice-failure">
              {failure}
            </Callout>
          )}
          <ChoiceField
            control={form.control}
            name="invoiceType"
            label={t('invoice.invoiceType')}
            options={[
              { value: INVOICE_TYPES.personal, label: t('invoice.personal') },
              { value: INVOICE_TYPES.enterprise, label: t('invoice.enterprise') },
            ]}
          />
          <ChoiceField
            control={form.control}
            name="billMode"
            label={t('invoice.billMode')}
            options={[
              { value: BILL_MODES.email, label: t('invoice.byEmail') },
              { value: postalMode, label: t('invoice.byPost') },
            ]}
          />
          <h4 className="jc-drawer-subtitle">
            {invoiceType === INVOICE_TYPES.enterprise ? t('invoice.enterpriseSection') : t('invoice.personalSection')}
          </h4>
          {shown.slice(0, invoiceType === INVOICE_TYPES.enterprise ? 3 : 1).map((name) => (
            <TextInput key={name} control={form.control} name={name} edition={edition} />
          ))}
          <h4 className="jc-drawer-subtitle">
            {isEmailMode(billMode) ? t('invoice.emailSection') : t('invoice.postSection')}
          </h4>
          {shown.slice(invoiceType === INVOICE_TYPES.enterprise ? 3 : 1).map((name) => (
            <TextInput key={name} control={form.control} name={name} edition={edition} />
          ))}
          <Controller
            control={form.control}
            name="isDefault"
            render={({ field }) => (
              <Checkbox
                name={field.name}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                label={t('invoice.isDefault')}
              />
            )}
          />
        </div>
      </div>
      <div className={Classes.DRAWER_FOOTER}>
        <div className="jc-drawer-actions">
          <Button text={t('cancel')} onClick={onClose} />
          <Button type="submit" intent="primary" icon={<FloppyDiskIcon />} text={t('invoice.save')} loading={form.formState.isSubmitting} />
        </div>
      </div>
    </form>
  );
}

interface ChoiceFieldProps {
  control: Control<InvoiceForm>;
  name: 'invoiceType' | 'billMode';
  label: string;
  options: { value: number; label: string }[];
}

/** A numeric field chosen with inline radio buttons (invoice type, delivery). */
function ChoiceField({ control, name, label, options }: ChoiceFieldProps) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormGroup label={label} className="jc-choice-group">
          <RadioGroup
            inline
            name={field.name}
            selectedValue={field.value}
            onChange={(event) => field.onChange(Number(event.currentTarget.value))}
            options={options}
          />
        </FormGroup>
      )}
    />
  );
}

interface TextInputProps {
  control: Control<InvoiceForm>;
  name: TextField;
  edition: 'domestic' | 'international';
}

function TextInput({ control, name, edition }: TextInputProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const id = FIELD_IDS[name];
  const extra: Partial<InputGroupProps> =
    name === 'billPhone'
      ? { type: 'tel', inputMode: 'numeric', placeholder: t(edition === 'domestic' ? 'invoice.phoneMainlandHint' : 'invoice.phoneDigitsHint') }
      : name === 'billMail'
        ? { type: 'email', placeholder: 'name@example.com' }
        : name === 'taxNumber'
          ? { placeholder: t('invoice.taxNumberHint') }
          : {};
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormGroup
          label={t(`invoice.fields.${name}`)}
          labelFor={id}
          labelInfo={<span className="jc-required" aria-hidden="true">*</span>}
          intent={fieldState.error ? 'danger' : 'none'}
          helperText={fieldState.error && <span id={`${id}-error`}>{fieldState.error.message}</span>}
        >
          <InputGroup
            id={id}
            name={field.name}
            inputRef={field.ref}
            value={field.value}
            onChange={clearingEmoji(field.onChange)}
            onBlur={field.onBlur}
            intent={fieldState.error ? 'danger' : 'none'}
            aria-invalid={fieldState.error ? true : undefined}
            // Screen readers read the refusal with the field.
            aria-describedby={fieldState.error ? `${id}-error` : undefined}
            {...extra}
          />
        </FormGroup>
      )}
    />
  );
}

/** The invoice choice of an order: whether one is wanted (applyFlag) and which saved bill. */
export interface InvoiceChoice {
  applyFlag: boolean;
  /** One of the caller's bills; null while none is chosen (no order is placed then). */
  billId: number | null;
}

export interface InvoiceOptionProps {
  value: InvoiceChoice;
  onChange(value: InvoiceChoice): void;
  disabled?: boolean;
}

/** How a saved bill reads in a list: who it is for, and how it is delivered. */
export function billLabel(bill: Bill, t: (key: string) => string): string {
  const holder = (bill.invoiceType === INVOICE_TYPES.enterprise ? bill.companyName : bill.personalName) || bill.billUserName;
  const kind = bill.invoiceType === INVOICE_TYPES.enterprise ? t('invoice.enterprise') : t('invoice.personal');
  const delivery = isEmailMode(bill.billMode) ? bill.billMail ?? '' : t('invoice.byPostShort');
  return `${holder} · ${kind} · ${delivery}`;
}

/**
 * The invoice option of the paying and SMS/voice drawers: a switch, then a choice of the saved
 * bills (the default one chosen first) with add and edit in the invoice drawer.
 */
export function InvoiceOption({ value, onChange, disabled = false }: InvoiceOptionProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const bills = useBills(value.applyFlag);
  const [drawer, setDrawer] = useState<{ isOpen: boolean; bill?: Bill }>({ isOpen: false });
  const list = bills.data ?? [];
  const chosen = list.find((bill) => bill.billId === value.billId);

  // Switched on with none chosen (or the chosen one deleted elsewhere): the default bill, else the first.
  useEffect(() => {
    if (!value.applyFlag || !bills.data || chosen) return;
    const fallback = bills.data.find((bill) => bill.billDefaultStatus === 1) ?? bills.data[0];
    if (fallback || value.billId !== null) onChange({ applyFlag: true, billId: fallback?.billId ?? null });
  }, [value.applyFlag, value.billId, bills.data, chosen, onChange]);

  return (
    <div className="jc-invoice-option" data-testid="invoice-option">
      <Switch
        checked={value.applyFlag}
        disabled={disabled}
        label={t('invoice.want')}
        onChange={(event) => onChange({ applyFlag: event.currentTarget.checked, billId: event.currentTarget.checked ? value.billId : null })}
        className="jc-invoice-switch"
      />
      {value.applyFlag && (
        <div className="jc-invoice-choice">
          {bills.isPending ? (
            <span className={Classes.TEXT_MUTED}>{t('loading')}</span>
          ) : list.length === 0 ? (
            <span className={Classes.TEXT_MUTED}>{t('invoice.noneSaved')}</span>
          ) : (
            <HTMLSelect
              aria-label={t('invoice.choose')}
              value={value.billId ?? ''}
              disabled={disabled}
              onChange={(event) => onChange({ applyFlag: true, billId: Number(event.currentTarget.value) || null })}
              options={[
                ...(chosen ? [] : [{ value: '', label: t('invoice.choose'), disabled: true }]),
                ...list.map((bill) => ({ value: bill.billId, label: billLabel(bill, t) })),
              ]}
              className="jc-invoice-select"
            />
          )}
          <Button
            icon={<AddIcon />}
            variant="minimal"
            intent="primary"
            disabled={disabled}
            text={t('invoice.add')}
            onClick={() => setDrawer({ isOpen: true })}
          />
          {chosen && (
            <Button
              icon={<EditIcon />}
              variant="minimal"
              disabled={disabled}
              text={t('invoice.edit')}
              onClick={() => setDrawer({ isOpen: true, bill: chosen })}
            />
          )}
        </div>
      )}
      <InvoiceDrawer
        isOpen={drawer.isOpen}
        bill={drawer.bill}
        onClose={() => setDrawer((current) => ({ ...current, isOpen: false }))}
        onSaved={(bill) => onChange({ applyFlag: true, billId: bill.billId })}
      />
    </div>
  );
}
