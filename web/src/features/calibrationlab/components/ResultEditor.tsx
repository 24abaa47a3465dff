import { Button, Callout, Checkbox, FormGroup } from '@blueprintjs/core';
import { AddIcon, TrashIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CALIBRATION_LIMITS, DECISION_RULES, UNITS, type ContentInput } from '@/lib/api/calibrationLab';
import { LIVE_VALIDATION } from '@/lib/forms';
import { ApiError } from '@/lib/http';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { contentOf, emptyPoint, formPath, pointError, resultFormSchema, type ResultForm } from '../resultForm';
import { placeProblems } from '../serverProblems';
import { Field } from './Field';

export interface ResultEditorProps {
  /** What the form starts with (a new device's, a draft's, or the issued version being corrected). */
  initial: ResultForm;
  /** A correction: asks for the reason printed on the new version. */
  correction?: boolean;
  /** Sends the content (and a correction's reason); a refusal is thrown back to be shown on the form. */
  onSave: (content: ContentInput, reason: string) => Promise<unknown>;
  onCancel: () => void;
}

const FIELDS = new Set(['labName', 'labAddress', 'traceability', 'customerName', 'customerAddress', 'itemType', 'itemModel', 'itemSerial',
  'conditionOnReceipt', 'receivedOn', 'calibratedOn', 'method', 'temperature', 'humidity', 'decisionRule', 'asFound',
  'asLeft', 'authorisedName', 'authorisedRole', 'remarks']);

/** The form's field for a server's field name, when the form shows it. */
function known(serverPath: string): string | null {
  const path = formPath(serverPath);
  return FIELDS.has(path.split('.')[0] ?? '') ? path : null;
}

/** The results of one device: the 7.8 content of its certificate, as found and (when adjusted) as left. */
export function ResultEditor({ initial, correction = false, onSave, onCancel }: ResultEditorProps) {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const resolver = useMemo(() => zodResolver(resultFormSchema(t)), [t]);
  const form = useForm<ResultForm>({ ...LIVE_VALIDATION, resolver, defaultValues: initial });
  useRevalidateOnLanguageChange(form);
  const { control } = form;
  const adjusted = useWatch({ control, name: 'adjusted' });
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const required = t('required');

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    if (correction && !reason.trim()) {
      setReasonError(t('error.required'));
      return;
    }
    try {
      await onSave(contentOf(values), reason.trim());
    } catch (error) {
      const { reason: refused, ...others } = error instanceof ApiError ? error.errors ?? {} : {};
      if (refused) setReasonError(refused.join(' '));
      const rest = refused && !Object.keys(others).length
        ? null : placeProblems(error, form.setError, (name) => (name === 'reason' ? null : known(name)), t);
      setFailure(rest);
    }
  });

  return (
    <form className="jc-cl-result" onSubmit={submit} noValidate data-testid="result-form">
      <fieldset className="jc-cl-fieldset">
        <legend>{t('result.item')}</legend>
        <div className="jc-cl-grid">
          <Field control={control} name="labName" label={t('result.labName')} required={required} />
          <Field control={control} name="labAddress" label={t('result.labAddress')} />
          <Field control={control} name="customerName" label={t('result.customerName')} required={required} />
          <Field control={control} name="customerAddress" label={t('result.customerAddress')} />
          <Field control={control} name="itemType" label={t('result.itemType')} required={required} />
          <Field control={control} name="itemModel" label={t('result.itemModel')} required={required} />
          <Field control={control} name="itemSerial" label={t('result.itemSerial')} required={required} />
          <Field control={control} name="conditionOnReceipt" label={t('result.conditionOnReceipt')} required={required} />
          <Field control={control} name="receivedOn" label={t('result.receivedOn')} required={required} type="date" />
          <Field control={control} name="calibratedOn" label={t('result.calibratedOn')} required={required} type="date" />
        </div>
      </fieldset>
      <fieldset className="jc-cl-fieldset">
        <legend>{t('result.method')}</legend>
        <div className="jc-cl-grid">
          <Field control={control} name="method" label={t('result.methodField')} required={required} />
          <Field control={control} name="traceability" label={t('result.traceability')} />
          <Field control={control} name="temperature" label={t('result.temperature')} required={required} inputMode="decimal"
            hint={t('result.temperatureHint', { min: CALIBRATION_LIMITS.labTemperature[0], max: CALIBRATION_LIMITS.labTemperature[1] })} />
          <Field control={control} name="humidity" label={t('result.humidity')} required={required} inputMode="decimal" />
          <Field control={control} name="decisionRule" label={t('result.decisionRule')}
            options={DECISION_RULES.map((rule) => ({ value: rule, label: t(`decisionRule.${rule}`) }))} />
        </div>
      </fieldset>
      <Points control={control} name="asFound" title={t('result.asFound')} />
      <Controller name="adjusted" control={control} render={({ field }) => (
        <Checkbox checked={field.value} label={t('result.adjusted')} data-testid="result-adjusted"
          onChange={(event) => {
            field.onChange(event.currentTarget.checked);
            if (event.currentTarget.checked && form.getValues('asLeft').length === 0) form.setValue('asLeft', [emptyPoint()]);
          }} />
      )} />
      {adjusted && <Points control={control} name="asLeft" title={t('result.asLeft')} />}
      <fieldset className="jc-cl-fieldset">
        <legend>{t('result.authorisation')}</legend>
        <div className="jc-cl-grid">
          <Field control={control} name="authorisedName" label={t('result.authorisedName')} required={required} />
          <Field control={control} name="authorisedRole" label={t('result.authorisedRole')} required={required} />
        </div>
        <Field control={control} name="remarks" label={t('result.remarks')} multiline />
      </fieldset>
      {correction && (
        <FormGroup label={t('correct.reason')} labelFor="cl-reason" labelInfo={required} intent={reasonError ? 'danger' : 'none'}
          helperText={reasonError ?? t('correct.reasonHint')}>
          <textarea id="cl-reason" className="bp6-input bp6-fill" data-testid="correct-reason" value={reason}
            maxLength={CALIBRATION_LIMITS.statement * 2}
            onChange={(event) => { setReason(event.currentTarget.value); setReasonError(null); }} />
        </FormGroup>
      )}
      {failure && <Callout intent="danger" data-testid="result-form-error">{failure}</Callout>}
      <div className="jc-cl-actions">
        <Button text={t('common:cancel')} onClick={onCancel} />
        <Button type="submit" intent="primary" loading={form.formState.isSubmitting} data-testid="result-save"
          text={correction ? t('correct.submit') : t('result.save')} />
      </div>
    </form>
  );
}

interface PointsProps {
  control: Control<ResultForm>;
  /** As found, or as left. */
  name: 'asFound' | 'asLeft';
  title: string;
}

/** A list of measurement points, each with its error worked out as typed. */
function Points({ control, name, title }: PointsProps) {
  const { t } = useTranslation('calibrationlab');
  const { fields, append, remove } = useFieldArray({ control, name });
  const points = useWatch({ control, name });
  const problem = control.getFieldState(name).error;
  const message = problem?.message ?? problem?.root?.message;
  return (
    <fieldset className="jc-cl-fieldset" data-testid={`points-${name}`}>
      <legend>{title}</legend>
      {fields.map((item, index) => {
        const error = pointError(points?.[index]?.reading ?? '', points?.[index]?.reference ?? '');
        return (
          <div className="jc-cl-point" key={item.id} data-testid={`point-${name}`}>
            <span className="jc-cl-point-index">{index + 1}</span>
            <Field control={control} name={`${name}.${index}.reference`} label={t('point.reference')} inputMode="decimal" />
            <Field control={control} name={`${name}.${index}.reading`} label={t('point.reading')} inputMode="decimal" />
            <FormGroup label={t('point.error')} className="jc-cl-point-error">
              <output data-testid={`point-error-${name}-${index}`}>{error ?? '—'}</output>
            </FormGroup>
            <Field control={control} name={`${name}.${index}.uncertainty`} label={t('point.uncertainty')} inputMode="decimal" />
            <Field control={control} name={`${name}.${index}.unit`} label={t('point.unit')}
              options={UNITS.map((unit) => ({ value: unit, label: unit }))} />
            <Field control={control} name={`${name}.${index}.tolerance`} label={t('point.tolerance')} inputMode="decimal" />
            <Button variant="minimal" icon={<TrashIcon />} aria-label={t('point.remove', { index: index + 1 })}
              disabled={name === 'asFound' && fields.length === 1} onClick={() => remove(index)} className="jc-cl-point-remove" />
          </div>
        );
      })}
      {message && <p className="jc-cl-problem" role="alert">{message}</p>}
      <Button variant="outlined" icon={<AddIcon />} text={t('point.add')} disabled={fields.length >= CALIBRATION_LIMITS.points}
        onClick={() => append(emptyPoint(points?.[points.length - 1]?.unit ?? '°C'))} data-testid={`point-add-${name}`} />
    </fieldset>
  );
}
