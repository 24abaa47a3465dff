import { Callout } from '@blueprintjs/core';
import { ErrorIcon } from '@blueprintjs/icons';

/** Props of a form-level error message. */
export interface FormErrorProps {
  /** The message; nothing is drawn without one. */
  message: string | null;
}

/** A refusal that concerns the whole form (wrong password, too many attempts, ...). */
export function FormError({ message }: FormErrorProps) {
  if (!message) return null;
  return (
    <Callout className="jc-auth-error" intent="danger" icon={<ErrorIcon />} compact role="alert" data-testid="form-error">
      {message}
    </Callout>
  );
}
