import { HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { NO_PROJECT, useProject } from '@/lib/api/projects';
import { usePermissions } from '@/lib/permissions';
import { ProjectSearchInput, useProjectSearch } from './ProjectSearch';
import './manage.css';

const ANY = 'any';

interface ProjectFilterProps {
  /** The project filtered on (its id), NO_PROJECT, or null for any. */
  value: number | null;
  onChange: (project: number | null) => void;
}

/**
 * The device list's project filter, for whoever has projects (project.list); nothing otherwise.
 * The projects offered are those whose name holds what was typed, searched on the server (there
 * may be more than fit in one list), as the move-to-project dialog searches them.
 */
export function ProjectFilter({ value, onChange }: ProjectFilterProps) {
  const { t } = useTranslation('devices');
  const held = usePermissions().has('project.list');
  const { search, setSearch, projects } = useProjectSearch(held);
  // The chosen project may not be among those found (another search, an address kept): named by its own call.
  const found = projects.data?.data ?? [];
  const chosenId = value !== null && value !== NO_PROJECT && !found.some((p) => p.id === value) ? value : null;
  const chosen = useProject(held ? chosenId : null);
  if (!held) return null;
  const options = [
    { value: ANY, label: t('project.filterAny') },
    ...found.map((p) => ({ value: String(p.id), label: p.organizationName ? `${p.projectName} · ${p.organizationName}` : p.projectName })),
    { value: String(NO_PROJECT), label: t('project.none') },
  ];
  if (chosenId !== null) {  // a deleted one (or another's) still shows as chosen
    options.splice(1, 0, { value: String(chosenId), label: chosen.data?.projectName ?? t('project.unknown', { id: chosenId }) });
  }
  return (
    <span className="jc-project-filter">
      <ProjectSearchInput value={search} onChange={setSearch} className="jc-project-filter-search" testId="device-project-search" />
      <HTMLSelect
        aria-label={t('project.filter')}
        data-testid="device-project-filter"
        value={value === null ? ANY : String(value)}
        onChange={(event) => onChange(event.currentTarget.value === ANY ? null : Number(event.currentTarget.value))}
        options={options}
      />
    </span>
  );
}
