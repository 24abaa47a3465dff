import { Alert, Button, Card, H2, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, EditIcon, ErrorIcon, FolderCloseIcon, OfficeIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { NameSearch } from '@/components/NameSearch';
import { PagerFooter } from '@/components/PagerFooter';
import { notify } from '@/lib/notify';
import { usePaging } from '@/hooks/usePaging';
import { usePermissions } from '@/lib/permissions';
import { formatInstant } from '@/lib/units';
import { useDeleteProject, useProjects, type Project } from '@/lib/api/projects';
import { ProjectDetail } from './components/ProjectDetail';
import { ProjectDialog } from './components/ProjectDialog';
import './projects.css';

/** The project open in place, from the address (?id=), so a link or a reload opens it again. */
function openId(params: URLSearchParams): number | null {
  const raw = params.get('id') ?? '';
  return /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) < 2 ** 31 ? Number(raw) : null;
}

/** Projects: the account's groups of devices, searched, made, renamed, deleted, and each opened with its devices. */
export default function ProjectsPage() {
  const { t, i18n } = useTranslation(['projects', 'app']);
  const held = usePermissions();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const paging = usePaging();
  const query = useProjects(search, paging.start, paging.pageSize);
  const remove = useDeleteProject();
  const [editing, setEditing] = useState<Project | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const opened = openId(params);
  const open = (id: number | null) => setParams(id === null ? {} : { id: String(id) });
  const page = query.data;

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: ({ released }) => {
        notify.success(t('deleted', { name: deleting.projectName, count: released }));
        if (opened === deleting.id) open(null);
      },
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <div className="jc-pj" data-testid="projects-page">
      <header className="jc-pj-head">
        <H2>{t('app:route.projectManage')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-pj-card" elevation={0}>
        <div className="jc-pj-toolbar">
          <NameSearch value={search} onSearch={(name) => { setSearch(name); paging.restart(); }}
            placeholder={t('searchPlaceholder')} searchText={t('search')} clearLabel={t('clear')} testId="project-search" />
          <span className="jc-pj-spacer" />
          {held.has('project.list:add') && (
            <Button intent="primary" icon={<AddIcon />} text={t('add')} onClick={() => setEditing('new')} data-testid="project-add" />
          )}
        </div>
        {page === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
        ) : page.data.length === 0 ? (
          <NonIdealState icon={<FolderCloseIcon />} title={t(search ? 'noMatch' : 'empty')}
            description={search ? undefined : t('emptyHint')} />
        ) : (
          <div className="jc-pj-table-wrap">
            <HTMLTable className="jc-pj-table" striped interactive data-testid="projects-table">
              <thead>
                <tr>
                  <th>{t('column.name')}</th>
                  <th>{t('column.devices')}</th>
                  <th className="jc-pj-wide">{t('column.remark')}</th>
                  <th className="jc-pj-wide">{t('column.created')}</th>
                  <th aria-label={t('column.actions')} />
                </tr>
              </thead>
              <tbody>
                {page.data.map((project) => (
                  <tr key={project.id} data-testid="project-row" data-project-name={project.projectName}
                    className={project.id === opened ? 'is-open' : undefined}>
                    <td>
                      <Button variant="minimal" className="jc-pj-name" icon={<FolderCloseIcon />} text={project.projectName}
                        onClick={() => open(project.id)} aria-current={project.id === opened} data-testid="project-open" />
                      {project.organizationName && (
                        <Tag minimal icon={<OfficeIcon />} data-testid="project-organization">{project.organizationName}</Tag>
                      )}
                      {!project.changeable && <Tag minimal intent="warning" data-testid="project-read-only">{t('readOnly')}</Tag>}
                    </td>
                    <td>
                      <span className="jc-pj-counts">
                        <Tag minimal round data-testid="project-device-count">{t('count.devices', { count: project.deviceCount })}</Tag>
                        {project.alarmCount > 0 && <Tag minimal round intent="danger">{t('count.alarm', { count: project.alarmCount })}</Tag>}
                      </span>
                    </td>
                    <td className="jc-pj-wide jc-pj-remark">{project.remark}</td>
                    <td className="jc-pj-wide">{formatInstant(project.createdAt, i18n.language, false)}</td>
                    <td className="jc-pj-actions">
                      {held.has('project.list:edit') && project.changeable && (
                        <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                          onClick={() => setEditing(project)} data-testid="project-edit" />
                      )}
                      {held.has('project.list:delete') && project.changeable && (
                        <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')} aria-label={t('delete')}
                          onClick={() => setDeleting(project)} data-testid="project-delete" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {page !== undefined && page.totalCount > 0 && (
          <PagerFooter {...paging.footer(page.totalCount)} />
        )}
      </Card>
      {opened !== null && (
        <ProjectDetail key={opened} projectId={opened} onEdit={setEditing} onDelete={setDeleting} onClose={() => open(null)} />
      )}
      <ProjectDialog project={editing} onClose={() => setEditing(null)}
        onSaved={(saved) => { if (editing === 'new') open(saved.id); }} />
      <Alert isOpen={deleting !== null} intent="danger" icon={<TrashIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('delete')} loading={remove.isPending} onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete} canEscapeKeyCancel>
        <p data-testid="project-delete-confirm">
          {t('deleteConfirm', { name: deleting?.projectName ?? '', count: deleting?.deviceCount ?? 0 })}
        </p>
      </Alert>
    </div>
  );
}

