import { Button, Callout, Card, Checkbox, FormGroup, H4, H5, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, ArrowDownIcon, ArrowLeftIcon, ArrowUpIcon, EditIcon, TrashIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { editionConfig } from '@/lib/config';
import { ApiError } from '@/lib/http/index';
import { useAccountPhoto } from '@/lib/api/accountPhoto';
import { formatCents } from '@/lib/money';
import { usePermissions } from '@/lib/permissions';
import { showError } from '@/lib/serverErrors';
import {
  deleteLevel,
  savePackage,
  sortLevels,
  uploadLevelIcon,
  useCatalogueChange,
  useItems,
  usePackage,
  useTypes,
  type Level,
  type PackageDetail,
} from '../api/packages';
import { namesForForm, namesForServer, packageFormSchema, type PackageForm } from '../packageForm';
import { GiftForm } from './GiftForm';
import { LevelDialog } from './LevelDialog';
import { NamesGrid } from './NamesGrid';

const PERMISSION = 'order.servicePackage';

/** One package: its code, names and device types, then its levels (each with its durations, fees,
 * discount and items, edited in a dialog) and the free gift. `packageId` null: a new package. */
export function PackageEditor({ packageId }: { packageId: number | null }) {
  const { t } = useTranslation('catalogue');
  const navigate = useNavigate();
  const detail = usePackage(packageId);
  const back = () => navigate({ pathname: '/service/package', search: '?tab=packages' });
  if (packageId !== null && detail.isPending) return <Spinner />;
  if (packageId !== null && !detail.data) return <NonIdealState title={t('packages.missing')} />;
  return (
    <div className="jc-cat-editor" data-testid="package-editor">
      <Button variant="minimal" icon={<ArrowLeftIcon />} text={t('packages.back')} onClick={back} data-testid="package-back" />
      <PackageFields detail={detail.data ?? null}
        onCreated={(id) => navigate({ pathname: `/service/package/${id}`, search: '?tab=packages' })} />
      {detail.data && <Levels detail={detail.data} />}
      {detail.data && (
        <Card className="jc-cat-card">
          <H4>{t('gift.title')}</H4>
          <GiftForm detail={detail.data} />
        </Card>
      )}
    </div>
  );
}

function PackageFields({ detail, onCreated }: { detail: PackageDetail | null; onCreated: (id: number) => void }) {
  const { t } = useTranslation('catalogue');
  const held = usePermissions();
  const defaultLanguage = editionConfig().defaultLanguage;
  const schema = useMemo(() => packageFormSchema(t, defaultLanguage), [t, defaultLanguage]);
  const types = useTypes();
  const save = useCatalogueChange(({ fields, id }: { fields: Parameters<typeof savePackage>[0]; id?: number }) =>
    savePackage(fields, id));
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const pkg = detail?.package;
  const { control, handleSubmit, setError } = useForm<PackageForm>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: { packageCode: pkg?.packageCode ?? '', names: namesForForm(pkg?.names ?? {}),
      deviceTypeIds: pkg?.deviceTypeIds ?? [] },
  });
  const editable = held.has(`${PERMISSION}:${pkg ? 'edit' : 'add'}`);
  const submit = handleSubmit((values) => {
    setFormError(null);
    setSaved(false);
    const fields = { packageCode: values.packageCode.trim(), names: namesForServer(values.names, false),
      deviceTypeIds: values.deviceTypeIds };
    save.mutate({ fields, id: pkg?.id }, {
      onSuccess: (result) => {
        setSaved(true);
        if (!pkg) onCreated(result.id);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.errors) {
          for (const [name, messages] of Object.entries(error.errors)) {
            if (name === 'packageCode' || name === 'deviceTypeIds' || name.startsWith('names.')) {
              setError(name as never, { type: 'server', message: messages[0] });
            }
          }
          setFormError(error.errors.packageCode || Object.keys(error.errors).some((k) => k.startsWith('names.'))
            ? null : error.message);
          return;
        }
        setFormError(showError(error, setError, ['packageCode'] as const, {}, t));
      },
    });
  });
  return (
    <Card className="jc-cat-card">
      <H4>{pkg ? t('packages.editTitle', { name: pkg.packageName }) : t('packages.newTitle')}</H4>
      {pkg && (
        <p className="jc-cat-muted">
          <Tag intent={pkg.status === 1 ? 'success' : 'none'}>{t(pkg.status === 1 ? 'packages.enabled' : 'packages.stopped')}</Tag>
          {' '}{pkg.status === 0 && t('packages.stoppedHint')}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} data-testid="package-form">
        <Controller name="packageCode" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('packages.code')} labelFor="package-code" labelInfo={t('form.codeHint')}
            intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
            <InputGroup {...field} id="package-code" inputRef={field.ref} inputMode="numeric" maxLength={8}
              intent={fieldState.error ? 'danger' : 'none'} disabled={!editable} data-testid="package-code" />
          </FormGroup>
        )} />
        <FormGroup label={t('packages.names')}>
          <NamesGrid control={control} field="names" withDescription={false} defaultLanguage={defaultLanguage}
            testId="package-names" />
        </FormGroup>
        <Controller name="deviceTypeIds" control={control} render={({ field }) => (
          <FormGroup label={t('packages.types')} helperText={t('packages.typesHint')}>
            <div className="jc-cat-types" data-testid="package-types">
              {(types.data ?? []).map((type) => {
                const elsewhere = type.activePackageId !== null && type.activePackageId !== pkg?.id;
                return (
                  <Checkbox key={type.id} checked={field.value.includes(type.id)} disabled={!editable}
                    labelElement={<span>{type.typeName}{elsewhere && <Tag minimal className="jc-cat-tag">{t('packages.typeTaken')}</Tag>}</span>}
                    onChange={(e) => field.onChange(e.currentTarget.checked ? [...field.value, type.id]
                      : field.value.filter((id) => id !== type.id))}
                    data-testid={`package-type-${type.typeCode.toString(16)}`} />
                );
              })}
            </div>
          </FormGroup>
        )} />
        {formError && <Callout intent="danger" data-testid="package-form-error">{formError}</Callout>}
        {saved && <Callout intent="success" data-testid="package-saved">{t('packages.saved')}</Callout>}
        {editable && <Button type="submit" intent="primary" text={t(pkg ? 'save' : 'packages.create')}
          loading={save.isPending} data-testid="package-save" />}
      </form>
    </Card>
  );
}

function Levels({ detail }: { detail: PackageDetail }) {
  const { t, i18n } = useTranslation('catalogue');
  const held = usePermissions();
  const items = useItems();
  const [editing, setEditing] = useState<Level | 'new' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useCatalogueChange(deleteLevel);
  const sort = useCatalogueChange((ids: number[]) => sortLevels(detail.package.id, ids));
  const icon = useCatalogueChange(({ levelId, file }: { levelId: number; file: File }) => uploadLevelIcon(levelId, file));
  const levels = detail.levels;
  const move = (index: number, by: number) => {
    const ids = levels.map((level) => level.levelId);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    sort.mutate(ids);
  };
  const itemName = (code: string) => items.data?.find((item) => item.itemCode === code)?.itemName ?? code;
  return (
    <Card className="jc-cat-card" data-testid="package-levels">
      <div className="jc-cat-bar">
        <H4>{t('levels.title')}</H4>
        {held.has(`${PERMISSION}:add`) && (
          <Button icon={<AddIcon />} intent="primary" text={t('levels.add')} onClick={() => setEditing('new')}
            data-testid="level-add" />
        )}
      </div>
      <p className="jc-cat-muted">{t('levels.soldHint')}</p>
      {refusal && <Callout intent="danger">{refusal}</Callout>}
      {levels.length === 0 && <NonIdealState title={t('levels.none')} />}
      <div className="jc-cat-levels">
        {levels.map((level, index) => (
          <Card key={level.levelId} className="jc-cat-level" data-testid="level-card">
            <div className="jc-cat-level-head">
              {level.levelIcon && <LevelIcon address={level.levelIcon} />}
              <H5 data-testid="level-name">{level.levelName}</H5>
              {level.inUse && <Tag minimal>{t('levels.inUse')}</Tag>}
            </div>
            <ul className="jc-cat-options">
              {level.options.map((option) => (
                <li key={option.id} data-testid="level-option">
                  {t('levels.months', { count: option.timeLength })} · {formatCents(option.serviceFee, option.currency, i18n.language)}
                  {option.dataFee > 0 && ` + ${formatCents(option.dataFee, option.currency, i18n.language)}`}
                  {option.discount < 100 && ` · ${t('levels.discountShort', { discount: option.discount })}`}
                  {option.topStatus && <Tag minimal intent="primary" className="jc-cat-tag">{t('levels.recommended')}</Tag>}
                </li>
              ))}
            </ul>
            <p className="jc-cat-muted">{level.itemCodes.map(itemName).join(' · ') || t('levels.noItems')}</p>
            <div className="jc-cat-actions">
              {held.has(`${PERMISSION}:edit`) && (
                <>
                  <Button size="small" icon={<EditIcon />} text={t('packages.edit')} onClick={() => setEditing(level)}
                    data-testid="level-edit" />
                  <Button size="small" variant="minimal" icon={<ArrowUpIcon />} aria-label={t('levels.up')}
                    disabled={index === 0} onClick={() => move(index, -1)} />
                  <Button size="small" variant="minimal" icon={<ArrowDownIcon />} aria-label={t('levels.down')}
                    disabled={index === levels.length - 1} onClick={() => move(index, 1)} />
                  <label className="bp6-button bp6-small bp6-minimal jc-cat-upload">
                    {t('levels.icon')}
                    <input type="file" accept="image/png,image/jpeg" hidden onChange={(e) => {
                      const file = e.currentTarget.files?.[0];
                      if (file) icon.mutate({ levelId: level.levelId, file });
                    }} />
                  </label>
                </>
              )}
              {held.has(`${PERMISSION}:delete`) && !level.inUse && (
                <Button size="small" variant="minimal" intent="danger" icon={<TrashIcon />} aria-label={t('levels.delete')}
                  onClick={() => remove.mutate(level.levelId, {
                    onError: (error) => setRefusal(error instanceof Error ? error.message : null) })} />
              )}
            </div>
          </Card>
        ))}
      </div>
      <LevelDialog packageId={detail.package.id} level={editing} items={items.data ?? []} onClose={() => setEditing(null)} />
    </Card>
  );
}

/** A level's icon, fetched with the operator's token (an <img> cannot send it). */
function LevelIcon({ address }: { address: string }) {
  const url = useAccountPhoto(address);
  return url ? <img src={url} alt="" className="jc-cat-icon" data-testid="level-icon" /> : null;
}
