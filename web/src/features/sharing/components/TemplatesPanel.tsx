import {
  Alert, Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, InputGroup, NonIdealState, Spinner, Tag,
} from '@blueprintjs/core';
import { AddIcon, EditIcon, ErrorIcon, KeyIcon, LockIcon, TrashIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ELEMENT_CODES } from '@/lib/access';
import { SHARING_LIMITS, useDeleteTemplate, useSaveTemplate, useTemplates, type Template } from '@/lib/api/sharing';
import { clearingEmoji } from '@/lib/clearEmoji';
import { LIVE_VALIDATION } from '@/lib/forms';
import { ApiError } from '@/lib/http/index';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { gridOf, permissionsOf, templateFormSchema, tick, type Grid, type TemplateForm } from '../templateForm';

/** The permission templates: the two built-ins, then mine, each with what it lets see and operate. */
export function TemplatesPanel() {
  const { t } = useTranslation('sharing');
  const held = usePermissions();
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notify.success(t('template.deleted', { name: deleting.name }));
    } catch {
      // the client has shown the server's reason (shares still use it); nothing changed
    }
    setDeleting(null);
  };

  return (
    <div className="jc-sh-panel" data-testid="templates-panel">
      <div className="jc-sh-toolbar">
        <p className="jc-sh-intro">{t('template.intro')}</p>
        <span className="jc-sh-spacer" />
        {held.has('consumer.sharer:add') && (
          <Button intent="primary" icon={<AddIcon />} text={t('template.add')} onClick={() => setEditing('new')} data-testid="template-add" />
        )}
      </div>
      {templates.data === undefined ? (
        templates.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
      ) : (
        <div className="jc-sh-table-wrap">
          <HTMLTable className="jc-sh-table" striped data-testid="templates-table">
            <thead>
              <tr>
                <th>{t('template.name')}</th>
                <th>{t('template.visible')}</th>
                <th>{t('template.operable')}</th>
                <th>{t('template.shares')}</th>
                <th aria-label={t('column.actions')} />
              </tr>
            </thead>
            <tbody>
              {templates.data.map((template) => {
                const grid = gridOf(template.permissions);
                const seen = ELEMENT_CODES.filter((code) => grid[code].view).length;
                const operated = ELEMENT_CODES.filter((code) => grid[code].operate).length;
                return (
                  <tr key={template.id} data-testid="template-row" data-template-name={template.name}>
                    <td>
                      <span className="jc-sh-template-name">{template.name}</span>
                      {template.builtIn && <Tag minimal round icon={<LockIcon />} className="jc-sh-builtin">{t('template.builtIn')}</Tag>}
                    </td>
                    <td>{t('template.count', { count: seen, total: ELEMENT_CODES.length })}</td>
                    <td>{t('template.count', { count: operated, total: ELEMENT_CODES.length })}</td>
                    <td>{template.shares}</td>
                    <td className="jc-sh-actions">
                      {!template.builtIn && held.has('consumer.sharer:edit') && (
                        <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                          onClick={() => setEditing(template)} data-testid="template-edit" />
                      )}
                      {!template.builtIn && held.has('consumer.sharer:delete') && (
                        <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')} aria-label={t('delete')}
                          onClick={() => setDeleting(template)} data-testid="template-delete" />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
      )}
      <TemplateDialog template={editing} onClose={() => setEditing(null)} />
      <Alert isOpen={deleting !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete')} loading={remove.isPending} onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()} canEscapeKeyCancel>
        <p data-testid="template-delete-confirm">
          {deleting && (deleting.shares > 0
            ? t('template.deleteInUse', { name: deleting.name, count: deleting.shares })
            : t('template.deleteConfirm', { name: deleting.name }))}
        </p>
      </Alert>
    </div>
  );
}

/** Makes a template or changes one of mine: its name and, per element, Visible and Operable. */
export function TemplateDialog({ template, onClose }: { template: Template | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('sharing');
  return (
    <Dialog isOpen={template !== null} onClose={onClose} className="jc-sh-dialog" icon={<KeyIcon />}
      title={t(template === 'new' ? 'template.addTitle' : 'template.editTitle')}>
      {template !== null && <TemplateFormBody template={template === 'new' ? null : template} onDone={onClose} />}
    </Dialog>
  );
}

function TemplateFormBody({ template, onDone }: { template: Template | null; onDone: () => void }) {
  const { t } = useTranslation('sharing');
  const schema = useMemo(() => templateFormSchema(t), [t]);
  const save = useSaveTemplate();
  const [grid, setGrid] = useState<Grid>(() => gridOf(template?.permissions ?? []));
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<TemplateForm>({
    ...LIVE_VALIDATION, resolver: zodResolver(schema), defaultValues: { name: template?.name ?? '' },
  });
  const submit = handleSubmit(async ({ name }) => {
    setFailure(null);
    try {
      await save.mutateAsync({ fields: { name, permissions: permissionsOf(grid) }, id: template?.id });
      notify.success(t('template.saved', { name }));
      onDone();
    } catch (error) {
      const message = error instanceof ApiError ? error.errors?.name?.[0] : undefined;
      if (message) setError('name', { message });
      else setFailure(error instanceof Error && error.message ? error.message : t('error.save'));
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="template-form">
      <DialogBody>
        <Controller name="name" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('template.name')} labelFor="template-name" labelInfo={t('required')}
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('template.nameHint', { max: SHARING_LIMITS.templateName })}>
            <InputGroup {...field} onChange={clearingEmoji(field.onChange)} id="template-name" inputRef={ref} autoFocus
              intent={fieldState.error ? 'danger' : 'none'} data-testid="template-name" />
          </FormGroup>
        )} />
        <HTMLTable compact className="jc-sh-grid" data-testid="template-grid">
          <thead>
            <tr>
              <th>{t('template.element')}</th>
              <th>{t('template.visible')}</th>
              <th>{t('template.operable')}</th>
            </tr>
          </thead>
          <tbody>
            {ELEMENT_CODES.map((code) => (
              <tr key={code} data-testid={`grid-${code}`}>
                <td>{t(`element.${code}`)}</td>
                <td>
                  <Checkbox checked={grid[code].view} aria-label={t('template.visibleOf', { element: t(`element.${code}`) })}
                    onChange={(event) => setGrid(tick(grid, code, 'view', event.currentTarget.checked))} data-testid={`grid-${code}-view`} />
                </td>
                <td>
                  <Checkbox checked={grid[code].operate} aria-label={t('template.operableOf', { element: t(`element.${code}`) })}
                    onChange={(event) => setGrid(tick(grid, code, 'operate', event.currentTarget.checked))} data-testid={`grid-${code}-operate`} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <p className="jc-sh-hint">{t('template.gridHint')}</p>
        {failure && <Callout intent="danger" data-testid="template-form-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="template-save" />
      </>} />
    </form>
  );
}
