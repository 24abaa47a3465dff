import { HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { NO_PROJECT, PROJECT_LIMITS, useProjects } from '@/lib/api/projects';
import { usePermissions } from '@/lib/permissions';

const ANY = 'any';

interface ProjectFilterProps {
  /** The project filtered on (its id), NO_PROJECT, or null for any. */
  value: number | null;
  onChange: (project: number | null) => void;
}

/** The device list's project filter, for whoever has projects (project.list); nothing otherwise. */
export function ProjectFilter({ value, onChange }: ProjectFilterProps) {
  const { t } = useTranslation('devices');
  const held = usePermissions().has('project.list');
  const projects = useProjects('', 1, PROJECT_LIMITS.move, held);
  if (!held) return null;
  const options = [
    { value: ANY, label: t('project.filterAny') },
    ...(projects.data?.data ?? []).map((p) => ({ value: String(p.id), label: p.projectName })),
    { value: String(NO_PROJECT), label: t('project.none') },
  ];
  // A project not among the options (an address kept from before it was deleted) still shows as chosen.
  if (value !== null && !options.some((option) => option.value === String(value))) {
    options.push({ value: String(value), label: t('project.unknown', { id: value }) });
  }
  return (
    <HTMLSelect
      aria-label={t('project.filter')}
      data-testid="device-project-filter"
      value={value === null ? ANY : String(value)}
      onChange={(event) => onChange(event.currentTarget.value === ANY ? null : Number(event.currentTarget.value))}
      options={options}
    />
  );
}
