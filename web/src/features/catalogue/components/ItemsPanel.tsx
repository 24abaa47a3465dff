import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, InputGroup, Spinner } from '@blueprintjs/core';
import { AddIcon, ArrowDownIcon, ArrowUpIcon, EditIcon, TrashIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { editionConfig } from '@/lib/config';
import { ApiError } from '@/lib/http/index';
import { usePermissions } from '@/lib/permissions';
import { deleteItem, saveItem, sortItems, useCatalogueChange, useItems, type Item, type ItemFields } from '../api/packages';
import { LIMITS, namesForForm, namesForServer } from '../packageForm';
import { NamesGrid } from './NamesGrid';

const PERMISSION = 'order.servicePackage';

/** The service items (the feature rows under the level cards): code, label, name and supplement per
 * language, in the order customers see them. */
export default function ItemsPanel() {
  const { t } = useTranslation('catalogue');
  const held = usePermissions();
  const items = useItems();
  const [editing, setEditing] = useState<Item | 'new' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const sort = useCatalogueChange(sortItems);
  const remove = useCatalogueChange(deleteItem);
  if (items.isPending) return <Spinner />;
  const rows = items.data ?? [];
  const move = (index: number, by: number) => {
    const codes = rows.map((row) => row.itemCode);
    const [moved] = codes.splice(index, 1);
    codes.splice(index + by, 0, moved!);
    sort.mutate(codes);
  };
  return (
    <div className="jc-cat-panel" data-testid="items-panel">
      <div className="jc-cat-bar">
        <p>{t('items.intro')}</p>
        {held.has(`${PERMISSION}:add`) && (
          <Button intent="primary" icon={<AddIcon />} text={t('items.new')} onClick={() => setEditing('new')}
            data-testid="item-new" />
        )}
      </div>
      {refusal && <Callout intent="danger">{refusal}</Callout>}
      <div className="jc-cat-scroll">
        <HTMLTable compact striped className="jc-cat-table">
          <thead><tr><th>{t('items.code')}</th><th>{t('items.name')}</th><th>{t('items.label')}</th><th /></tr></thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={row.itemCode} data-testid="item-row">
                <td className="jc-cat-code">{row.itemCode}</td>
                <td>{row.itemName}</td>
                <td>{row.itemLabel ?? '—'}</td>
                <td className="jc-cat-actions">
                  {held.has(`${PERMISSION}:edit`) && (
                    <>
                      <Button size="small" variant="minimal" icon={<ArrowUpIcon />} aria-label={t('levels.up')}
                        disabled={index === 0} onClick={() => move(index, -1)} />
                      <Button size="small" variant="minimal" icon={<ArrowDownIcon />} aria-label={t('levels.down')}
                        disabled={index === rows.length - 1} onClick={() => move(index, 1)} />
                      <Button size="small" variant="minimal" icon={<EditIcon />} aria-label={t('packages.edit')}
                        onClick={() => setEditing(row)} />
                    </>
                  )}
                  {held.has(`${PERMISSION}:delete`) && (
                    <Button size="small" variant="minimal" intent="danger" icon={<TrashIcon />} aria-label={t('items.delete')}
                      onClick={() => remove.mutate(row.itemCode, {
                        onError: (error) => setRefusal(error instanceof Error ? error.message : null) })} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <Dialog isOpen={editing !== null} onClose={() => setEditing(null)} className="jc-cat-dialog"
        title={t(editing === 'new' ? 'items.new' : 'items.edit')}>
        {editing !== null && <ItemForm item={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Dialog>
    </div>
  );
}

function ItemForm({ item, onDone }: { item: Item | null; onDone: () => void }) {
  const { t } = useTranslation('catalogue');
  const defaultLanguage = editionConfig().defaultLanguage;
  const schema = useMemo(() => z.object({
    itemCode: z.string().trim().regex(/^[A-Z][A-Z0-9_]{1,39}$/, t('form.itemCode')),
    itemLabel: z.string().max(LIMITS.itemLabel, t('form.tooLong', { max: LIMITS.itemLabel })),
    names: z.record(z.string(), z.object({ name: z.string(), description: z.string() })).refine(
      (names) => (names[defaultLanguage]?.name.trim() ?? '') !== '', t('form.defaultRequired')),
  }), [t, defaultLanguage]);
  const save = useCatalogueChange(({ fields }: { fields: ItemFields }) => saveItem(fields, item === null));
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: { itemCode: item?.itemCode ?? '', itemLabel: item?.itemLabel ?? '', names: namesForForm(item?.names ?? {}) },
  });
  const submit = handleSubmit((values) => {
    setFormError(null);
    save.mutate({ fields: { itemCode: values.itemCode.trim(), itemLabel: values.itemLabel.trim() || null,
      names: namesForServer(values.names as never, true) } }, {
      onSuccess: onDone,
      onError: (error) => {
        if (error instanceof ApiError && error.errors) {
          for (const [name, messages] of Object.entries(error.errors)) setError(name as never, { type: 'server', message: messages[0] });
        }
        setFormError(error instanceof Error ? error.message : null);
      },
    });
  });
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="item-form">
      <DialogBody>
        <Controller name="itemCode" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('items.code')} labelFor="item-code" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <InputGroup {...field} id="item-code" inputRef={field.ref} disabled={item !== null} data-testid="item-code" />
          </FormGroup>
        )} />
        <Controller name="itemLabel" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('items.label')} labelFor="item-label" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <InputGroup {...field} id="item-label" inputRef={field.ref} data-testid="item-label" />
          </FormGroup>
        )} />
        <FormGroup label={t('items.names')} helperText={formState.errors.names?.message as string | undefined}
          intent={formState.errors.names ? 'danger' : 'none'}>
          <NamesGrid control={control} field="names" withDescription defaultLanguage={defaultLanguage} testId="item-names" />
        </FormGroup>
        {formError && <Callout intent="danger">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="item-save" />
      </>} />
    </form>
  );
}
