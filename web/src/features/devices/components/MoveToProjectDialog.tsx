import { Alert, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { FolderSharedIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { NO_PROJECT, useChangeProject } from '@/lib/api/projects';
import type { DeviceToDelete } from './DeleteDevicesDialog';
import { ProjectSearchInput, useProjectSearch } from './ProjectSearch';
import './manage.css';

interface MoveToProjectDialogProps {
  /** The devices to move (the caller's to change); empty: closed. */
  devices: readonly DeviceToDelete[];
  onClose: () => void;
  onMoved?: () => void;
}

/** Moves the selected devices into one of the caller's projects, or out of any: all or none. */
export function MoveToProjectDialog({ devices, onClose, onMoved }: MoveToProjectDialogProps) {
  const { t } = useTranslation('devices');
  const open = devices.length > 0;
  // The projects the caller may fill whose name holds what was typed, searched on the server (there may be
  // more than one page of them); a read-only member's organization projects are not offered.
  const { search, setSearch, searched, projects } = useProjectSearch(open);
  const offered = (projects.data?.data ?? []).filter((p) => p.changeable);
  const change = useChangeProject();
  const [target, setTarget] = useState<number | null>(null);
  const chosen = target !== null && (target === NO_PROJECT || offered.some((p) => p.id === target))
    ? target : offered[0]?.id ?? NO_PROJECT;
  const close = () => {
    setTarget(null);
    setSearch('');
    onClose();
  };
  const confirm = async () => {
    try {
      const { moved } = await change.mutateAsync({
        deviceIds: devices.map((device) => device.deviceId),
        projectId: chosen === NO_PROJECT ? null : chosen,
      });
      notify.success(t(chosen === NO_PROJECT ? 'project.removed' : 'project.moved', { count: moved }));
      onMoved?.();
      close();
    } catch {
      // the client has shown the server's reason; nothing moved
    }
  };
  return (
    <Alert
      isOpen={open}
      intent="primary"
      icon={<FolderSharedIcon />}
      cancelButtonText={t('info.cancel')}
      confirmButtonText={t('project.confirm', { count: devices.length })}
      loading={change.isPending}
      onCancel={close}
      onConfirm={() => void confirm()}
      canEscapeKeyCancel
      className="jc-delete-dialog"
    >
      <div data-testid="move-project-dialog">
        <p>
          <strong>{t('project.title', { count: devices.length })}</strong>
        </p>
        <FormGroup label={t('project.target')} labelFor="jc-move-project">
          <ProjectSearchInput value={search} onChange={setSearch} className="jc-move-project-search"
            testId="move-project-search" />
          <HTMLSelect
            id="jc-move-project"
            fill
            value={chosen}
            onChange={(event) => setTarget(Number(event.currentTarget.value))}
            options={[
              ...offered.map((p) => ({ value: p.id, label: p.organizationName ? `${p.projectName} · ${p.organizationName}` : p.projectName })),
              { value: NO_PROJECT, label: t('project.none') },
            ]}
            data-testid="move-project-target"
          />
        </FormGroup>
        {projects.data?.totalCount === 0 && !searched && <p>{t('project.noneYet')}</p>}
      </div>
    </Alert>
  );
}
