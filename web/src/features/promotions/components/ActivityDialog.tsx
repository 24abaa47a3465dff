import {
  Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, NumericInput, Radio, RadioGroup, Tag,
} from '@blueprintjs/core';
import { AddIcon, CrossIcon, DuplicateIcon, InfoSignIcon, SearchIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES } from '@/lib/i18n';
import { chargedCents, formatCents } from '@/lib/money';
import { sortError } from '@/lib/serverErrors';
import {
  PROMOTION_LIMITS, saveActivity, useAccountSearch, useActivityOptions, usePromotionChange, type Activity, type OptionLabel,
} from '../api/promotions';
import { activityFormSchema, activityToForm, emptyActivityForm, formToFields, type ActivityForm } from '../activityForm';

interface ActivityDialogProps {
  /** The activity to edit, 'new' to add one; null: closed. */
  activity: Activity | 'new' | null;
  onClose: () => void;
  onSaved: (activity: Activity) => void;
}

/** Adds or edits an activity: name (and per language), nature, validity, offer, linked options, target accounts. */
export function ActivityDialog({ activity, onClose, onSaved }: ActivityDialogProps) {
  const { t } = useTranslation('promotions');
  return (
    <Dialog isOpen={activity !== null} onClose={onClose} className="jc-pr-dialog"
      title={activity === 'new' ? t('activity.addTitle') : t('activity.editTitle', { name: activity?.name ?? '' })}>
      {activity !== null && (
        <ActivityFormBody activity={activity === 'new' ? null : activity} onDone={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}

const FIELDS = ['name', 'startTime', 'endTime', 'discount', 'bonusMonths', 'options', 'accounts'] as const;
/** Server field names onto the form's. */
const SERVER_FIELDS: Record<string, (typeof FIELDS)[number]> = { accountIds: 'accounts' };

function optionGroups(options: readonly OptionLabel[]) {
  const groups = new Map<string, OptionLabel[]>();
  for (const o of options) {
    const key = `${o.packageName} · ${o.levelName} · ${o.currency}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  return [...groups.entries()];
}

function ActivityFormBody({ activity, onDone, onSaved }: { activity: Activity | null; onDone: () => void;
  onSaved: (activity: Activity) => void }) {
  const { t, i18n } = useTranslation('promotions');
  const schema = useMemo(() => activityFormSchema(t), [t]);
  const options = useActivityOptions();
  const [search, setSearch] = useState('');
  const [searched, setSearched] = useState('');
  const found = useAccountSearch(searched);
  const [formError, setFormError] = useState<string | null>(null);
  const save = usePromotionChange((form: ActivityForm) => saveActivity(formToFields(form), activity?.id ?? null));
  const { control, handleSubmit, setError, watch, setValue } = useForm<ActivityForm>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: activity ? activityToForm(activity) : emptyActivityForm(),
  });
  const nature = watch('nature');
  const accounts = watch('accounts');
  const linked = watch('options');
  const byId = useMemo(() => new Map((options.data ?? []).map((o) => [o.levelYearId, o])), [options.data]);
  const setLinked = (next: ActivityForm['options']) => setValue('options', next, { shouldValidate: true });
  const applyToAll = () => setLinked(linked.map((o) => ({ ...o, discount: watch('discount'), bonusMonths: watch('bonusMonths') })));
  const submit = handleSubmit((values) => {
    setFormError(null);
    save.mutate(values, {
      onSuccess: (saved) => {
        onSaved(saved);
        onDone();
      },
      onError: (error) => {
        const sorted = sortError(error, [...FIELDS, ...Object.keys(SERVER_FIELDS)], {}, t);
        for (const [name, message] of Object.entries(sorted.fields)) {
          if (message) setError(SERVER_FIELDS[name] ?? (name as (typeof FIELDS)[number]), { type: 'server', message });
        }
        setFormError(sorted.form);
      },
    });
  });
  const labelOf = (o: OptionLabel) => `${t('months', { count: o.timeLength })} · ${formatCents(o.serviceFee, o.currency, i18n.language)}`;

  return (
    <form onSubmit={(e) => void submit(e)} data-testid="pr-activity-form">
      <DialogBody>
        <Controller name="name" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('field.name')} labelFor="pr-name" labelInfo={t('required')}
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('hint.name', { max: PROMOTION_LIMITS.name })}>
            <InputGroup {...field} id="pr-name" inputRef={ref} intent={fieldState.error ? 'danger' : 'none'} data-testid="pr-name" />
          </FormGroup>
        )} />
        <FormGroup label={t('field.names')} helperText={t('hint.names')}>
          <div className="jc-pr-names">
            {LANGUAGES.map((language) => (
              <Controller key={language} name={`names.${language}`} control={control}
                render={({ field: { ref, ...field }, fieldState }) => (
                  <FormGroup label={LANGUAGE_NAMES[language]} labelFor={`pr-name-${language}`} className="jc-pr-name"
                    intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
                    <InputGroup {...field} value={field.value ?? ''} id={`pr-name-${language}`} inputRef={ref} lang={language}
                      intent={fieldState.error ? 'danger' : 'none'} data-testid={`pr-name-${language}`} />
                  </FormGroup>
                )} />
            ))}
          </div>
        </FormGroup>
        <Controller name="nature" control={control} render={({ field }) => (
          <RadioGroup label={t('field.nature')} inline selectedValue={String(field.value)}
            onChange={(e) => field.onChange(Number(e.currentTarget.value))}>
            <Radio value="1" label={t('nature.1')} data-testid="pr-nature-1" />
            <Radio value="2" label={t('nature.2')} data-testid="pr-nature-2" />
          </RadioGroup>
        )} />
        <div className="jc-pr-pair">
          {(['startTime', 'endTime'] as const).map((name) => (
            <Controller key={name} name={name} control={control} render={({ field: { ref, ...field }, fieldState }) => (
              <FormGroup label={t(`field.${name}`)} labelFor={`pr-${name}`} labelInfo={t('required')}
                intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
                <InputGroup {...field} id={`pr-${name}`} inputRef={ref} type="datetime-local"
                  intent={fieldState.error ? 'danger' : 'none'} data-testid={`pr-${name}`} />
              </FormGroup>
            )} />
          ))}
        </div>
        <Controller name="options" control={control} render={({ fieldState }) => (
          <FormGroup label={t('field.options')} labelInfo={t('required')} intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('hint.options')}>
            <div className="jc-pr-options" data-testid="pr-options">
              {optionGroups(options.data ?? []).map(([group, rows]) => (
                <fieldset key={group} className="jc-pr-option-group">
                  <legend>{group}</legend>
                  {rows.map((o) => (
                    <Checkbox key={o.levelYearId} label={labelOf(o)} checked={linked.some((x) => x.levelYearId === o.levelYearId)}
                      data-testid="pr-option" data-option-id={o.levelYearId}
                      onChange={(e) => setLinked(e.currentTarget.checked
                        ? [...linked, { levelYearId: o.levelYearId, discount: watch('discount'), bonusMonths: watch('bonusMonths') }]
                        : linked.filter((x) => x.levelYearId !== o.levelYearId))} />
                  ))}
                </fieldset>
              ))}
            </div>
          </FormGroup>
        )} />
        <div className="jc-pr-defaults">
          <Controller name="discount" control={control} render={({ field, fieldState }) => (
            <FormGroup label={t('field.discountDefault')} labelFor="pr-discount" intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message ?? t('hint.discount')}>
              <NumericInput id="pr-discount" fill min={1} max={100} value={field.value} allowNumericCharactersOnly
                onValueChange={(value) => field.onChange(Number.isNaN(value) ? Number.NaN : value)}
                intent={fieldState.error ? 'danger' : 'none'} rightElement={<Tag minimal>%</Tag>} data-testid="pr-discount" />
            </FormGroup>
          )} />
          <Controller name="bonusMonths" control={control} render={({ field, fieldState }) => (
            <FormGroup label={t('field.bonusMonths')} labelFor="pr-bonus" intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message}>
              <NumericInput id="pr-bonus" fill min={0} max={PROMOTION_LIMITS.bonusMonths} value={field.value}
                allowNumericCharactersOnly onValueChange={(value) => field.onChange(value)}
                intent={fieldState.error ? 'danger' : 'none'} data-testid="pr-bonus" />
            </FormGroup>
          )} />
          <Button className="jc-pr-apply" icon={<DuplicateIcon />} text={t('activity.applyToAll')} disabled={linked.length === 0}
            onClick={applyToAll} data-testid="pr-apply-all" />
        </div>
        {linked.length > 0 && (
          <div className="jc-pr-linked" role="table" aria-label={t('activity.linked')} data-testid="pr-linked">
            <div className="jc-pr-linked-head" role="row">
              <span role="columnheader">{t('field.options')}</span>
              <span role="columnheader">{t('field.discount')}</span>
              <span role="columnheader">{t('field.bonusMonths')}</span>
              <span role="columnheader">{t('activity.pays')}</span>
              <span role="columnheader" aria-label={t('activity.unlink')} />
            </div>
            {linked.map((row, index) => {
              const o = byId.get(row.levelYearId);
              const pays = o && Number.isInteger(row.discount) && row.discount >= 1 && row.discount <= 100
                ? formatCents(chargedCents(o.serviceFee, row.discount, o.currency), o.currency, i18n.language) : '—';
              return (
                <div key={row.levelYearId} className="jc-pr-linked-row" role="row" data-testid="pr-linked-row"
                  data-option-id={row.levelYearId}>
                  <span role="cell" className="jc-pr-linked-name">
                    {o ? <>{o.packageName} · {o.levelName}<span className="jc-pr-muted"> {labelOf(o)}</span></> : `#${row.levelYearId}`}
                  </span>
                  <Controller name={`options.${index}.discount`} control={control} render={({ field, fieldState }) => (
                    <FormGroup role="cell" label={t('field.discount')} className="jc-pr-linked-cell" intent={fieldState.error ? 'danger' : 'none'}
                      helperText={fieldState.error?.message}>
                      <NumericInput fill min={1} max={100} value={field.value} allowNumericCharactersOnly
                        aria-label={t('field.discount')} rightElement={<Tag minimal>%</Tag>}
                        onValueChange={(value) => field.onChange(Number.isNaN(value) ? Number.NaN : value)}
                        intent={fieldState.error ? 'danger' : 'none'} data-testid="pr-option-discount" />
                    </FormGroup>
                  )} />
                  <Controller name={`options.${index}.bonusMonths`} control={control} render={({ field, fieldState }) => (
                    <FormGroup role="cell" label={t('field.bonusMonths')} className="jc-pr-linked-cell"
                      intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
                      <NumericInput fill min={0} max={PROMOTION_LIMITS.bonusMonths} value={field.value} allowNumericCharactersOnly
                        aria-label={t('field.bonusMonths')} onValueChange={(value) => field.onChange(value)}
                        intent={fieldState.error ? 'danger' : 'none'} data-testid="pr-option-bonus" />
                    </FormGroup>
                  )} />
                  <span role="cell" className="jc-pr-linked-pays" data-testid="pr-option-pays">{pays}</span>
                  <Button role="cell" variant="minimal" icon={<CrossIcon />} title={t('activity.unlink')} aria-label={t('activity.unlink')}
                    onClick={() => setLinked(linked.filter((x) => x.levelYearId !== row.levelYearId))} data-testid="pr-option-unlink" />
                </div>
              );
            })}
          </div>
        )}
        {nature === 2 && (
          <Controller name="accounts" control={control} render={({ fieldState }) => (
            <FormGroup label={t('field.accounts')} labelInfo={t('required')} intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message ?? t('hint.accounts')}>
              <div className="jc-pr-targets" data-testid="pr-targets">
                {accounts.map((a) => (
                  <Tag key={a.id} large onRemove={() => setValue('accounts', accounts.filter((x) => x.id !== a.id), { shouldValidate: true })}
                    data-testid="pr-target">{a.userName}</Tag>
                ))}
              </div>
              <div className="jc-pr-search">
                <InputGroup value={search} maxLength={PROMOTION_LIMITS.search} placeholder={t('hint.accountSearch')}
                  onChange={(e) => setSearch(e.currentTarget.value)} data-testid="pr-account-search"
                  onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); setSearched(search.trim()); } }} />
                <Button icon={<SearchIcon />} text={t('search')} onClick={() => setSearched(search.trim())} data-testid="pr-account-find" />
              </div>
              {searched !== '' && found.data && (
                found.data.length === 0 ? <p className="jc-pr-muted">{t('noAccount')}</p> : (
                  <ul className="jc-pr-found">
                    {found.data.filter((a) => !accounts.some((x) => x.id === a.id)).map((a) => (
                      <li key={a.id}>
                        <span>{a.userName}<span className="jc-pr-muted"> {a.phone ?? ''} {a.email ?? ''}</span></span>
                        <Button size="small" icon={<AddIcon />} text={t('addTarget')} data-testid="pr-account-add"
                          onClick={() => setValue('accounts', [...accounts, a], { shouldValidate: true })} />
                      </li>
                    ))}
                  </ul>
                )
              )}
            </FormGroup>
          )} />
        )}
        <Callout icon={<InfoSignIcon />} intent="primary" className="jc-pr-note">{t('activity.restoreNote')}</Callout>
        {formError && <Callout intent="danger" data-testid="pr-form-error">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="pr-save" />
      </>} />
    </form>
  );
}
