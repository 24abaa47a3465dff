import { AlertPackagesPanel } from './AlertPackagesPanel';

/** The voice packages tab of /service/package. */
export default function VoicePanel() {
  return <AlertPackagesPanel kind={2} />;
}
