import { Checkbox, Radio, RadioGroup } from '@blueprintjs/core';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { INVOICE_ENTERPRISE, INVOICE_PERSONAL } from '@/lib/api/calibration';
import type { FormValues } from '../form';
import { Field } from './Field';

type TextName = 'customerName' | 'customerAddress' | 'contactName' | 'contactPhone' | 'contactEmail' | 'returnAddress'
  | 'remark' | 'invoiceTitle' | 'taxNumber';

/** The customer, contact, return address and invoice of an application. `quick`: contact and remark only. */
export function DetailsFields({ form, readOnly = false, quick = false }: { form: UseFormReturn<FormValues>; readOnly?: boolean;
  quick?: boolean }) {
  const { t } = useTranslation('calibration');
  const errors = form.formState.errors;
  const [wantInvoice, invoiceType] = useWatch({ control: form.control, name: ['wantInvoice', 'invoiceType'] });
  const text = (name: TextName, type = 'text') => (
    <Field id={`calibration-${name}`} label={t(`field.${name}`)} error={errors[name]?.message}>
      <input id={`calibration-${name}`} type={type} className="bp6-input bp6-fill" data-testid={`calibration-${name}`}
        readOnly={readOnly} {...form.register(name)} />
    </Field>
  );
  return (
    <>
      {!quick && (
        <fieldset className="jc-cal-section" disabled={readOnly}>
          <legend>{t('section.customer')}</legend>
          {text('customerName')}
          {text('customerAddress')}
          <Checkbox checked={Boolean(wantInvoice)} label={t('field.wantInvoice')} data-testid="calibration-wantInvoice"
            onChange={(event) => form.setValue('wantInvoice', event.currentTarget.checked)} />
          {wantInvoice && (
            <>
              <RadioGroup inline label={t('field.invoiceType')} selectedValue={Number(invoiceType)}
                onChange={(event) => form.setValue('invoiceType', Number(event.currentTarget.value),
                  { shouldValidate: form.formState.isSubmitted })}>
                <Radio value={INVOICE_PERSONAL} label={t('field.invoicePersonal')} />
                <Radio value={INVOICE_ENTERPRISE} label={t('field.invoiceEnterprise')} />
              </RadioGroup>
              {text('invoiceTitle')}
              {Number(invoiceType) === INVOICE_ENTERPRISE && text('taxNumber')}
            </>
          )}
        </fieldset>
      )}
      <fieldset className="jc-cal-section" disabled={readOnly}>
        <legend>{t('section.contact')}</legend>
        {text('contactName')}
        {text('contactPhone', 'tel')}
        {text('contactEmail', 'email')}
        {!quick && text('returnAddress')}
        {text('remark')}
      </fieldset>
    </>
  );
}
