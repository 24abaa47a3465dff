import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useManagedOrganizations } from '@/lib/api/myOrganizations';

/** The value of "mine": the caller's own, no organization. */
export const MINE = 0;

interface OwnerSelectProps {
  /** The element id and test id ("project-owner", "asset-owner"). */
  id: string;
  value: number;
  onChange: (owner: number) => void;
  label: string;
  hint: string;
  mineLabel: string;
}

/**
 * Whose a new project or asset is: the caller's own (MINE) or one of the organizations where it
 * changes the devices (which change their projects and assets too). Shown only when there is
 * such an organization; the owner is not changed later.
 */
export function OwnerSelect({ id, value, onChange, label, hint, mineLabel }: OwnerSelectProps) {
  const organizations = useManagedOrganizations();
  if (organizations.length === 0) return null;
  return (
    <FormGroup label={label} labelFor={id} helperText={hint}>
      <HTMLSelect id={id} fill value={value} onChange={(e) => onChange(Number(e.currentTarget.value))}
        options={[{ value: MINE, label: mineLabel },
          ...organizations.map((o) => ({ value: o.organizationId, label: o.organizationName }))]}
        data-testid={id} />
    </FormGroup>
  );
}

/** The organizationId a new one is sent with. */
export function ownerId(owner: number): number | null {
  return owner === MINE ? null : owner;
}
