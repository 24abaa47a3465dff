import type { ReactNode } from 'react';

/** A labelled field with its error underneath (Blueprint's form-group look, native inputs). */
export function Field({ label, error, children, id }: { label: string; error?: string; children: ReactNode; id: string }) {
  return (
    <div className={`bp6-form-group jc-cal-field${error ? ' bp6-intent-danger' : ''}`}>
      <label className="bp6-label" htmlFor={id}>{label}</label>
      <div className="bp6-form-content">
        {children}
        {error && <div className="bp6-form-helper-text" role="alert" data-testid={`${id}-error`}>{error}</div>}
      </div>
    </div>
  );
}
