import { Button, Callout, Card, Classes, H3, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { CrossIcon, EditIcon, ListIcon, TrashIcon } from '@blueprintjs/icons';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PagerFooter } from '@/components/PagerFooter';
import { StateTag } from '@/components/DeviceTags';
import { ReadOnlyTag } from '@/components/ReadOnly';
import { mayChange } from '@/lib/access';
import { useDevicePage, type Device } from '@/lib/api/devices';
import { useChangeProject, useProject, type Project } from '@/lib/api/projects';
import { detailHref, listHref } from '@/lib/deviceListQuery';
import { notify } from '@/lib/notify';
import { usePaging } from '@/hooks/usePaging';
import { usePermissions } from '@/lib/permissions';

interface ProjectDetailProps {
  projectId: number;
  onEdit: (project: Project) => void;
  onDelete: (project: Project) => void;
  onClose: () => void;
}

/** One project: its counts and its devices, each a link to the device and removable from the project. */
export function ProjectDetail({ projectId, onEdit, onDelete, onClose }: ProjectDetailProps) {
  const { t } = useTranslation('projects');
  const held = usePermissions();
  const project = useProject(projectId);
  const paging = usePaging();
  const devices = useDevicePage({ projectId, start: paging.start, pageSize: paging.pageSize }, project.data !== undefined);
  const change = useChangeProject();
  // Opened below the list: on a phone it would start out of sight.
  const card = useRef<HTMLDivElement>(null);
  const loaded = project.data !== undefined;
  useEffect(() => {
    if (loaded) card.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [loaded]);
  const remove = (device: Device) => change.mutate({ deviceIds: [device.deviceId], projectId: null }, {
    onSuccess: () => notify.success(t('removed', { name: device.deviceName })),
  });
  if (project.data === undefined) {
    return (
      <Card className="jc-pj-detail" elevation={0}>
        {project.isError ? <Callout intent="warning" data-testid="project-missing">{t('missing')}</Callout> : <Spinner />}
      </Card>
    );
  }
  const p = project.data;
  return (
    <Card className="jc-pj-detail" elevation={0} data-testid="project-detail" ref={card}>
      <div className="jc-pj-detail-head">
        <div className="jc-pj-detail-title">
          <H3>{p.projectName}</H3>
          {p.remark && <p className={Classes.TEXT_MUTED}>{p.remark}</p>}
          <div className="jc-pj-counts">
            <Tag minimal round>{t('count.devices', { count: p.deviceCount })}</Tag>
            <Tag minimal round intent="success">{t('count.online', { count: p.onlineCount })}</Tag>
            {p.alarmCount > 0 && <Tag minimal round intent="danger">{t('count.alarm', { count: p.alarmCount })}</Tag>}
          </div>
        </div>
        <div className="jc-pj-detail-actions">
          <Link to={listHref('/device/list', { project: p.id })} className={`${Classes.BUTTON} ${Classes.OUTLINED}`}
            data-testid="project-open-list">
            <ListIcon /><span className={Classes.BUTTON_TEXT}>{t('openList')}</span>
          </Link>
          {held.has('project.list:edit') && p.changeable && (
            <Button variant="outlined" icon={<EditIcon />} text={t('edit')} onClick={() => onEdit(p)} />
          )}
          {held.has('project.list:delete') && p.changeable && (
            <Button variant="outlined" intent="danger" icon={<TrashIcon />} text={t('delete')} onClick={() => onDelete(p)} />
          )}
          <Button variant="minimal" icon={<CrossIcon />} aria-label={t('close')} title={t('close')} onClick={onClose}
            data-testid="project-detail-close" />
        </div>
      </div>
      {devices.data === undefined ? <Spinner size={24} /> : devices.data.data.length === 0 ? (
        <NonIdealState icon={<ListIcon />} title={t('noDevices')} description={t('noDevicesHint')} />
      ) : (
        <div className="jc-pj-table-wrap">
          <HTMLTable compact striped className="jc-pj-table" data-testid="project-devices">
            <thead>
              <tr>
                <th>{t('column.device')}</th>
                <th>{t('column.type')}</th>
                <th>{t('column.state')}</th>
                <th aria-label={t('column.actions')} />
              </tr>
            </thead>
            <tbody>
              {devices.data.data.map((device) => (
                <tr key={device.deviceId} data-testid="project-device">
                  <td>
                    {held.has('device.detail')
                      ? <Link to={detailHref(device.deviceId)} data-testid="project-device-link">{device.deviceName}</Link>
                      : device.deviceName}
                    {!mayChange(device) && <> <ReadOnlyTag /></>}
                    <div className={`jc-mono ${Classes.TEXT_MUTED}`}>{device.deviceGuid}</div>
                  </td>
                  <td>{device.deviceTypeName}</td>
                  <td><StateTag device={device} /></td>
                  <td className="jc-pj-actions">
                    {held.has('project.list:edit') && p.changeable && mayChange(device) && (
                      <Button variant="minimal" size="small" intent="danger" text={t('remove')}
                        loading={change.isPending && change.variables.deviceIds[0] === device.deviceId}
                        onClick={() => remove(device)} data-testid="project-device-remove" />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {devices.data !== undefined && devices.data.totalCount > paging.pageSize && (
        <PagerFooter {...paging.footer(devices.data.totalCount)} />
      )}
    </Card>
  );
}
