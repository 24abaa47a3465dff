import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MINE, OwnerSelect, ownerId } from '@/components/OwnerSelect';
import { PROJECT_LIMITS, useSaveProject, type Project } from '@/lib/api/projects';
import { projectFormSchema, type ProjectForm } from '../projectForm';
import { showError } from '@/lib/serverErrors';

interface ProjectDialogProps {
  /** The project to rename, 'new' to make one; null: closed. */
  project: Project | 'new' | null;
  onClose: () => void;
  onSaved?: (project: Project) => void;
}

/** Makes a project or renames one (and its remark). */
export function ProjectDialog({ project, onClose, onSaved }: ProjectDialogProps) {
  const { t } = useTranslation('projects');
  return (
    <Dialog isOpen={project !== null} onClose={onClose} className="jc-pj-dialog"
      title={t(project === 'new' ? 'addTitle' : 'editTitle')}>
      {project !== null && <ProjectFormBody project={project === 'new' ? null : project} onDone={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function ProjectFormBody({ project, onDone, onSaved }: { project: Project | null; onDone: () => void;
  onSaved?: (project: Project) => void }) {
  const { t } = useTranslation('projects');
  const schema = useMemo(() => projectFormSchema(t), [t]);
  const save = useSaveProject();
  // A new project is the caller's own or one of an organization where it changes the devices.
  const [owner, setOwner] = useState(MINE);
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<ProjectForm>({
    resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: { projectName: project?.projectName ?? '', remark: project?.remark ?? '' },
  });
  const submit = handleSubmit((values) => {
    setFormError(null);
    const fields = { projectName: values.projectName, remark: values.remark || null,
      ...(project === null ? { organizationId: ownerId(owner) } : {}) };
    save.mutate({ fields, id: project?.id }, {
      onSuccess: (saved) => {
        onSaved?.(saved);
        onDone();
      },
      // The server's refusal of a field (a name already taken) shows under that field.
      onError: (error) => setFormError(showError(error, setError, ['projectName', 'remark'] as const, {}, t)),
    });
  });
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="project-form">
      <DialogBody>
        {project === null && (
          <OwnerSelect id="project-owner" value={owner} onChange={setOwner} label={t('field.owner')} hint={t('ownerHint')}
            mineLabel={t('ownerMine')} />
        )}
        {project?.organizationName && <p className={Classes.TEXT_MUTED} data-testid="project-owner-name">{project.organizationName}</p>}
        <Controller name="projectName" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('field.name')} labelFor="project-name" labelInfo={t('required')}
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('nameHint', { min: PROJECT_LIMITS.nameMin, max: PROJECT_LIMITS.name })}>
            <InputGroup {...field} id="project-name" inputRef={ref} autoFocus intent={fieldState.error ? 'danger' : 'none'}
              data-testid="project-name" />
          </FormGroup>
        )} />
        <Controller name="remark" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('field.remark')} labelFor="project-remark" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <TextArea {...field} id="project-remark" inputRef={ref} fill rows={3} data-testid="project-remark" />
          </FormGroup>
        )} />
        {formError && <Callout intent="danger" data-testid="project-form-error">{formError}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={save.isPending} data-testid="project-save" />
      </>} />
    </form>
  );
}
