import {
  Alert, Button, Callout, Card, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, NonIdealState, Spinner, TextArea,
} from '@blueprintjs/core';
import { AddIcon, EditIcon, ErrorIcon, FloppyDiskIcon, TrashIcon, WrenchIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { PagerFooter } from '@/components/PagerFooter';
import { useDeviceReadOnlyReason } from '@/components/ReadOnly';
import type { DeviceDetail } from '@/lib/api/devices';
import { mayOperate } from '@/lib/access';
import { notify } from '@/lib/notify';
import { DEFAULT_PAGE_SIZE } from '@/lib/paging';
import { usePermitted } from '@/lib/permissions';
import { showError } from '@/lib/serverErrors';
import { TextField } from '../components/TextField';
import {
  MAINTENANCE_LIMITS,
  useDeleteMaintenance,
  useMaintenance,
  useSaveMaintenance,
  type MaintenanceFields,
  type MaintenanceRecord,
  type MaintenanceText,
} from '../api/detailTabs';

const TEXTS = Object.keys(MAINTENANCE_LIMITS) as MaintenanceText[];
const REQUIRED = new Set<MaintenanceText>(['person', 'reason', 'content']);
/** Long enough to want several lines. */
const LONG = new Set<MaintenanceText>(['reason', 'content', 'standard', 'result']);
const FIELDS = ['maintainDate', ...TEXTS] as const;

/** Today as YYYY-MM-DD in the user's own calendar. */
export function today(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The server's rules (src/core/devices/maintenance.py), checked as the user types, in their language. */
export function maintenanceFormSchema(t: TFunction, latest: string = today()) {
  const text = (name: MaintenanceText) => {
    const max = MAINTENANCE_LIMITS[name];
    const counted = z.string().refine((value) => [...value.trim()].length <= max, t('maintenanceTab.error.tooLong', { max }));
    return REQUIRED.has(name) ? counted.refine((value) => value.trim().length > 0, t('maintenanceTab.error.required')) : counted;
  };
  return z.object({
    maintainDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, t('maintenanceTab.error.date'))
      .refine((value) => value <= latest, t('maintenanceTab.error.future'))
      .refine((value) => value >= '2000-01-01', t('maintenanceTab.error.early')),
    person: text('person'),
    approver: text('approver'),
    reason: text('reason'),
    content: text('content'),
    standard: text('standard'),
    result: text('result'),
  });
}
type MaintenanceForm = z.infer<ReturnType<typeof maintenanceFormSchema>>;

function formOf(record: MaintenanceRecord | null): MaintenanceForm {
  return {
    maintainDate: record?.maintainDate ?? today(),
    person: record?.person ?? '',
    approver: record?.approver ?? '',
    reason: record?.reason ?? '',
    content: record?.content ?? '',
    standard: record?.standard ?? '',
    result: record?.result ?? '',
  };
}

function fieldsOf(values: MaintenanceForm): MaintenanceFields {
  const optional = (value: string) => value.trim() || null;
  return {
    maintainDate: values.maintainDate,
    person: values.person.trim(),
    reason: values.reason.trim(),
    content: values.content.trim(),
    approver: optional(values.approver),
    standard: optional(values.standard),
    result: optional(values.result),
  };
}

/** The maintenance records tab: the device's records, latest first; writers add, edit and delete them. */
export function MaintenanceTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const [paging, setPaging] = useState({ start: 1, pageSize: DEFAULT_PAGE_SIZE as number });
  const query = useMaintenance(device.deviceId, paging.start, paging.pageSize);
  const permitted = usePermitted('device.list', 'edit');
  const granted = mayOperate(device, 'maintenance');
  const writable = granted && permitted;
  const reason = useDeviceReadOnlyReason(device);
  const [editing, setEditing] = useState<MaintenanceRecord | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MaintenanceRecord | null>(null);
  const page = query.data;

  return (
    <div className="jc-tab-maintenance" data-testid="device-maintenance">
      <div className="jc-tab-toolbar">
        <p className="jc-tab-intro">{t('maintenanceTab.intro')}</p>
        {writable && (
          <Button intent="primary" icon={<AddIcon />} text={t('maintenanceTab.add')} onClick={() => setEditing('new')}
            data-testid="maintenance-add" />
        )}
      </div>
      {!writable && (
        <Callout compact icon={null} className="jc-tab-readonly" data-testid="maintenance-read-only">
          {granted ? t('maintenanceTab.noPermission') : reason}
        </Callout>
      )}
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('maintenanceTab.loadFailed')} /> : <Spinner size={30} />
      ) : page.data.length === 0 ? (
        <div data-testid="maintenance-empty">
          <NonIdealState icon={<WrenchIcon />} title={t('maintenanceTab.empty')} />
        </div>
      ) : (
        <>
          <ol className="jc-tab-records">
            {page.data.map((record) => (
              <RecordCard key={record.id} record={record} writable={writable} onEdit={() => setEditing(record)}
                onDelete={() => setDeleting(record)} />
            ))}
          </ol>
          <PagerFooter page={paging.start} pageSize={paging.pageSize} total={page.totalCount} disabled={query.isFetching}
            onChange={(start) => setPaging((current) => ({ ...current, start }))}
            onPageSizeChange={(pageSize) => setPaging({ start: 1, pageSize })} />
        </>
      )}
      <Dialog isOpen={editing !== null} onClose={() => setEditing(null)} icon={<WrenchIcon />} className="jc-tab-dialog"
        title={t(editing === 'new' ? 'maintenanceTab.addTitle' : 'maintenanceTab.editTitle')}>
        {editing !== null && (
          <RecordForm deviceId={device.deviceId} record={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        )}
      </Dialog>
      <DeleteRecord deviceId={device.deviceId} record={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

function RecordCard({ record, writable, onEdit, onDelete }: {
  record: MaintenanceRecord; writable: boolean; onEdit: () => void; onDelete: () => void;
}) {
  const { t } = useTranslation('devices');
  const facts: [MaintenanceText, string | null][] = TEXTS.filter((name) => name !== 'person').map((name) => [name, record[name]]);
  return (
    <li>
      <Card elevation={0} className="jc-tab-record" data-testid="maintenance-record">
        <div className="jc-tab-record-head">
          <strong className="jc-tab-record-date">{record.maintainDate}</strong>
          <span>{record.person}</span>
          {writable && (
            <span className="jc-tab-record-actions">
              <Button variant="minimal" icon={<EditIcon />} aria-label={t('maintenanceTab.edit')} title={t('maintenanceTab.edit')}
                onClick={onEdit} data-testid="maintenance-edit" />
              <Button variant="minimal" intent="danger" icon={<TrashIcon />} aria-label={t('maintenanceTab.delete')}
                title={t('maintenanceTab.delete')} onClick={onDelete} data-testid="maintenance-delete" />
            </span>
          )}
        </div>
        <dl className="jc-tab-record-facts">
          {facts.filter(([, value]) => value).map(([name, value]) => (
            <div key={name}>
              <dt>{t(`maintenanceTab.field.${name}`)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </li>
  );
}

function LongField({ control, name, label, required }: {
  control: Control<MaintenanceForm>; name: MaintenanceText; label: string; required: boolean;
}) {
  const { t } = useTranslation('devices');
  const id = `maintenance-${name}`;
  const max = MAINTENANCE_LIMITS[name];
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { ref, ...field }, fieldState }) => (
        <FormGroup label={label} labelFor={id} labelInfo={required ? t('info.required') : t('info.optional')}
          intent={fieldState.error ? 'danger' : 'none'}
          helperText={fieldState.error ? <span id={`${id}-help`}>{fieldState.error.message}</span>
            : t('maintenanceTab.counter', { count: [...field.value].length, max })}>
          <TextArea {...field} id={id} inputRef={ref} fill rows={name === 'content' || name === 'result' ? 4 : 2}
            maxLength={max} intent={fieldState.error ? 'danger' : 'none'} aria-invalid={fieldState.error ? true : undefined}
            aria-describedby={fieldState.error ? `${id}-help` : undefined} data-testid={id} />
        </FormGroup>
      )}
    />
  );
}

function RecordForm({ deviceId, record, onDone }: { deviceId: number; record: MaintenanceRecord | null; onDone: () => void }) {
  const { t } = useTranslation('devices');
  const resolver = useMemo(() => zodResolver(maintenanceFormSchema(t)), [t]);
  const form = useForm<MaintenanceForm>({ resolver, mode: 'onChange', defaultValues: formOf(record) });
  const save = useSaveMaintenance(deviceId);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await save.mutateAsync({ ...fieldsOf(values), ...(record ? { id: record.id } : {}) });
      notify.success(t('maintenanceTab.saved'));
      onDone();
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, {}, t));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('maintenanceTab.formLabel')} data-testid="maintenance-form">
      <DialogBody>
        <div className="jc-tab-row">
          <Controller
            name="maintainDate"
            control={form.control}
            render={({ field: { ref, ...field }, fieldState }) => (
              <FormGroup label={t('maintenanceTab.field.maintainDate')} labelFor="maintenance-date" labelInfo={t('info.required')}
                intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
                <InputGroup {...field} id="maintenance-date" type="date" inputRef={ref} max={today()} min="2000-01-01"
                  intent={fieldState.error ? 'danger' : 'none'} data-testid="maintenance-date" />
              </FormGroup>
            )}
          />
          <TextField control={form.control} name="person" id="maintenance-person" label={t('maintenanceTab.field.person')}
            maxLength={MAINTENANCE_LIMITS.person} required testId="maintenance-person" />
          <TextField control={form.control} name="approver" id="maintenance-approver" label={t('maintenanceTab.field.approver')}
            maxLength={MAINTENANCE_LIMITS.approver} testId="maintenance-approver" />
        </div>
        {TEXTS.filter((name) => LONG.has(name)).map((name) => (
          <LongField key={name} control={form.control} name={name} label={t(`maintenanceTab.field.${name}`)} required={REQUIRED.has(name)} />
        ))}
        {failure && <Callout intent="danger" compact data-testid="maintenance-failure">{failure}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('info.cancel')} onClick={onDone} />
            <Button type="submit" intent="primary" icon={<FloppyDiskIcon />} loading={save.isPending} text={t('maintenanceTab.save')}
              data-testid="maintenance-save" />
          </>
        }
      />
    </form>
  );
}

function DeleteRecord({ deviceId, record, onClose }: { deviceId: number; record: MaintenanceRecord | null; onClose: () => void }) {
  const { t } = useTranslation('devices');
  const remove = useDeleteMaintenance(deviceId);
  const confirm = async () => {
    if (!record) return;
    try {
      await remove.mutateAsync(record.id);
      notify.success(t('maintenanceTab.deleted'));
      onClose();
    } catch {
      // the client has shown the server's reason; nothing was deleted
    }
  };
  return (
    <Alert isOpen={record !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('info.cancel')}
      confirmButtonText={t('maintenanceTab.delete')} loading={remove.isPending} onCancel={onClose}
      onConfirm={() => void confirm()} canEscapeKeyCancel>
      <p data-testid="maintenance-delete-confirm">
        {record && t('maintenanceTab.deleteConfirm', { date: record.maintainDate, person: record.person })}
      </p>
    </Alert>
  );
}
