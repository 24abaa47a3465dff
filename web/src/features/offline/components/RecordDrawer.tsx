import {
  Button, Callout, Classes, Drawer, FileInput, FormGroup, H5, HTMLSelect, InputGroup, SegmentedControl, TextArea,
} from '@blueprintjs/core';
import { DownloadIcon, EndorsedIcon, ShoppingCartIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { editionConfig } from '@/lib/config';
import { ApiError } from '@/lib/http/index';
import { notify } from '@/lib/notify';
import { saveFile } from '@/lib/saveFile';
import { sortError } from '@/lib/serverErrors';
import {
  OFFLINE_LIMITS, OFFLINE_PAY_TYPES, SHEET_EXTENSION, checkSheet, checkTyped, downloadTemplate, refusedRowsSchema,
  useRecordPurchase, type Content, type PurchaseDetail,
} from '../api/offline';
import { splitGuids } from '../guids';
import { EMPTY_FORM, SOURCES, amountOf, checkKey, contentOf, recordSchema, type RecordForm, type Source } from '../recordForm';
import { CheckReport, recordable, type Report } from './CheckReport';
import { LevelPicker } from './LevelPicker';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The fields a refusal may name (422 errors) that the form shows under themselves. */
const FIELDS = ['customer', 'levelId', 'levelYearId', 'smsCount', 'voiceCount', 'amount', 'payType', 'remark'] as const;

interface RecordDrawerProps {
  isOpen: boolean;
  /** The operator may read the catalogue to choose a level (order.servicePackage:query). */
  canReadCatalogue: boolean;
  onClose: () => void;
  /** Recorded: it awaits review. */
  onRecorded: (purchase: PurchaseDetail) => void;
}

/**
 * A new offline purchase: the customer, what each device gets, what was paid and how, and the
 * devices typed or uploaded as a sheet. The devices are checked row by row first; the purchase is
 * recorded only once every row of the check can be recharged, and it then awaits review.
 */
export function RecordDrawer({ isOpen, canReadCatalogue, onClose, onRecorded }: RecordDrawerProps) {
  const { t } = useTranslation('offline');
  return (
    <Drawer isOpen={isOpen} onClose={onClose} size={720} className="jc-ol-drawer" icon={<ShoppingCartIcon />}
      title={t('record.title')} canOutsideClickClose={false}>
      {isOpen && <RecordBody canReadCatalogue={canReadCatalogue} onClose={onClose} onRecorded={onRecorded} />}
    </Drawer>
  );
}

function RecordBody({ canReadCatalogue, onClose, onRecorded }: Omit<RecordDrawerProps, 'isOpen'>) {
  const { t } = useTranslation('offline');
  const schema = useMemo(() => recordSchema(t), [t]);
  const { control, handleSubmit, setError, setValue, formState: { errors } } = useForm<RecordForm>({
    resolver: zodResolver(schema), mode: 'onTouched', defaultValues: EMPTY_FORM,
  });
  const form = useWatch({ control }) as RecordForm;
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const key = checkKey(form, file);
  const current = report?.key === key ? report : null;
  const check = useMutation({
    mutationFn: ({ content, devices }: { content: Content; devices: string[] | File }) =>
      Array.isArray(devices) ? checkTyped(content, devices) : checkSheet(content, devices),
  });
  const record = useRecordPurchase();
  const busy = check.isPending || record.isPending;
  const currency = editionConfig().currency;

  /** A refusal's field messages under their fields (the file's under the file), the rest above the buttons. */
  const refused = (error: unknown) => {
    const sorted = sortError(error, [...FIELDS, 'file'] as const, {}, t);
    for (const name of FIELDS) {
      const message = sorted.fields[name];
      if (message) setError(name as FieldPath<RecordForm>, { type: 'server', message }, { shouldFocus: true });
    }
    if (sorted.fields.file) setFileProblem(sorted.fields.file);
    setProblem(sorted.form);
  };

  const runCheck = handleSubmit((values) => {
    setProblem(null);
    const devices = values.source === 'typed' ? splitGuids(values.guidsText) : file;
    if (devices === null) {
      setFileProblem(t('form.fileRequired'));
      return;
    }
    const made = checkKey(values, file);
    check.mutate({ content: contentOf(values), devices }, {
      onSuccess: (answer) => setReport({ key: made, customerName: answer.customerName, rows: answer.rows, valid: answer.valid }),
      onError: (error) => {
        setReport(null);
        refused(error);
      },
    });
  });

  const runRecord = handleSubmit((values) => {
    if (!recordable(current)) return;
    setProblem(null);
    const made = checkKey(values, file);
    record.mutate({
      ...contentOf(values), guids: current!.rows.map((row) => row.guid), amount: amountOf(values),
      payType: Number(values.payType), remark: values.remark,
    }, {
      onSuccess: (purchase) => {
        notify.success(t('record.done', { number: purchase.offlineId }));
        onRecorded(purchase);
      },
      onError: (error) => {
        const rows = error instanceof ApiError && error.status === 422 ? refusedRowsSchema.safeParse(error.data) : null;
        if (rows?.success) {
          setReport({
            key: made, customerName: null, valid: 0, refusal: error.message,
            rows: rows.data.rows.map((row) => ({ row: row.row, guid: row.guid, deviceId: null, deviceName: null,
              problem: row.problem, message: row.message ?? null })),
          });
        } else {
          refused(error);
        }
      },
    });
  });

  const chooseFile = (chosen: File | undefined) => {
    setFileProblem(null);
    if (!chosen) return;
    if (!chosen.name.toLowerCase().endsWith(SHEET_EXTENSION)) setFileProblem(t('form.fileType'));
    else if (chosen.size > OFFLINE_LIMITS.sheetBytes) setFileProblem(t('form.fileSize', { kb: OFFLINE_LIMITS.sheetBytes / 1024 }));
    else setFile(chosen);
  };
  const template = async () => {
    const sheet = await downloadTemplate();
    saveFile(sheet.blob, sheet.fileName ?? `offline-devices${SHEET_EXTENSION}`);
  };
  const listed = splitGuids(form.guidsText ?? '').length;

  return (
    <>
      <div className={Classes.DRAWER_BODY}>
        <form className="jc-ol-form" onSubmit={(e) => void runCheck(e)} data-testid="ol-record-form" noValidate>
          <Controller name="customer" control={control} render={({ field: { ref, ...field }, fieldState }) => (
            <FormGroup label={t('form.customer')} labelFor="ol-customer" labelInfo={t('form.required')}
              intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message ?? t('form.customerHint')}>
              <InputGroup {...field} id="ol-customer" inputRef={ref} maxLength={OFFLINE_LIMITS.customer} disabled={busy}
                intent={fieldState.error ? 'danger' : 'none'} data-testid="ol-customer" />
            </FormGroup>
          )} />

          <section>
            <H5>{t('form.content')}</H5>
            <LevelPicker control={control} setValue={setValue} canReadCatalogue={canReadCatalogue} disabled={busy} />
            <div className="jc-ol-row">
              {(['smsCount', 'voiceCount'] as const).map((name) => (
                <Controller key={name} name={name} control={control} render={({ field: { ref, ...field }, fieldState }) => (
                  <FormGroup label={t(`form.${name}`)} labelFor={`ol-${name}`} className="jc-ol-cell"
                    intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
                    <InputGroup {...field} id={`ol-${name}`} inputRef={ref} inputMode="numeric" placeholder="0" disabled={busy}
                      intent={fieldState.error ? 'danger' : 'none'} data-testid={`ol-${name}`} />
                  </FormGroup>
                )} />
              ))}
            </div>
            {errors.levelId?.message && (
              <p className="jc-ol-problem" role="alert" data-testid="ol-content-error">{errors.levelId.message}</p>
            )}
          </section>

          <section>
            <H5>{t('form.payment')}</H5>
            <div className="jc-ol-row">
              <Controller name="amount" control={control} render={({ field: { ref, ...field }, fieldState }) => (
                <FormGroup label={t('form.amount', { currency })} labelFor="ol-amount" labelInfo={t('form.required')}
                  className="jc-ol-cell" intent={fieldState.error ? 'danger' : 'none'}
                  helperText={fieldState.error?.message ?? t('form.amountHint')}>
                  <InputGroup {...field} id="ol-amount" inputRef={ref} inputMode="decimal" placeholder="0.00" disabled={busy}
                    intent={fieldState.error ? 'danger' : 'none'} data-testid="ol-amount" />
                </FormGroup>
              )} />
              <Controller name="payType" control={control} render={({ field: { ref, ...field } }) => (
                <FormGroup label={t('form.payType')} labelFor="ol-paytype" className="jc-ol-cell">
                  <HTMLSelect {...field} ref={ref} id="ol-paytype" fill disabled={busy} data-testid="ol-paytype">
                    {OFFLINE_PAY_TYPES.map((p) => <option key={p} value={p}>{t(`payType.${p}`)}</option>)}
                  </HTMLSelect>
                </FormGroup>
              )} />
            </div>
            <Controller name="remark" control={control} render={({ field: { ref, ...field }, fieldState }) => (
              <FormGroup label={t('form.remark')} labelFor="ol-remark" intent={fieldState.error ? 'danger' : 'none'}
                helperText={fieldState.error?.message ?? t('form.remarkHint')}>
                <TextArea {...field} id="ol-remark" inputRef={ref} fill rows={2} maxLength={OFFLINE_LIMITS.remark} disabled={busy}
                  data-testid="ol-remark" />
              </FormGroup>
            )} />
          </section>

          <section>
            <H5>{t('form.devices')}</H5>
            <Controller name="source" control={control} render={({ field }) => (
              <SegmentedControl fill className="jc-ol-source" aria-label={t('form.devices')} value={field.value}
                onValueChange={(value) => field.onChange(value as Source)} disabled={busy} data-testid="ol-source"
                options={SOURCES.map((source) => ({ value: source, label: t(`form.source.${source}`) }))} />
            )} />
            {form.source === 'sheet' ? (
              <FormGroup className="jc-ol-sheet" label={t('form.sheet')} labelFor="ol-file" intent={fileProblem ? 'danger' : 'none'}
                helperText={fileProblem ?? t('form.sheetHint', { rows: OFFLINE_LIMITS.sheetRows })}>
                <FileInput fill text={file?.name ?? t('form.chooseFile')} hasSelection={file !== null} buttonText={t('form.browse')}
                  disabled={busy}
                  inputProps={{ id: 'ol-file', accept: `${SHEET_EXTENSION},${XLSX_TYPE}`, ...({ 'data-testid': 'ol-file' } as object) }}
                  onInputChange={(event) => {
                    const input = event.currentTarget as HTMLInputElement;
                    chooseFile(input.files?.[0]);
                    input.value = '';
                  }} />
                <Button variant="minimal" size="small" icon={<DownloadIcon />} text={t('form.template')}
                  onClick={() => void template()} data-testid="ol-template" />
              </FormGroup>
            ) : (
              <Controller name="guidsText" control={control} render={({ field: { ref, ...field }, fieldState }) => (
                <FormGroup label={t('form.guids')} labelFor="ol-guids" intent={fieldState.error ? 'danger' : 'none'}
                  helperText={fieldState.error?.message ?? t('form.guidsHint', { count: listed })}>
                  <TextArea {...field} id="ol-guids" inputRef={ref} fill rows={5} disabled={busy} className="jc-ol-mono"
                    placeholder={'RCW360A0000001\nRCW360A0000002'} intent={fieldState.error ? 'danger' : 'none'}
                    data-testid="ol-guids" />
                </FormGroup>
              )} />
            )}
          </section>

          {current && <CheckReport report={current} />}
          {report && !current && <Callout compact data-testid="ol-report-stale">{t('check.stale')}</Callout>}
          {problem && <Callout intent="danger" role="alert" data-testid="ol-form-error">{problem}</Callout>}
        </form>
      </div>
      <div className={`${Classes.DRAWER_FOOTER} jc-ol-footer`}>
        <span className="jc-ol-sub jc-ol-footer-hint" data-testid="ol-record-hint">
          {recordable(current) ? t('record.ready', { count: current!.rows.length }) : current ? t('record.fixRows') : t('record.checkFirst')}
        </span>
        <Button text={t('cancel')} onClick={onClose} disabled={busy} />
        <Button icon={<EndorsedIcon />} text={t('check.button')} loading={check.isPending} disabled={record.isPending}
          onClick={() => void runCheck()} data-testid="ol-check" />
        <Button intent="primary" text={t('record.button')} loading={record.isPending}
          disabled={!recordable(current) || check.isPending} onClick={() => void runRecord()} data-testid="ol-record" />
      </div>
    </>
  );
}
