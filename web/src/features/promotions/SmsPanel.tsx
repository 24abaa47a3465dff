import { AlertPackagesPanel } from './AlertPackagesPanel';

/** The SMS packages tab of /service/package. */
export default function SmsPanel() {
  return <AlertPackagesPanel kind={1} />;
}
