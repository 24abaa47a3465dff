import { BindContactPage } from './BindContactPage';

/** /user/bind-phone: bind a phone number with an SMS code. */
export default function BindPhonePage() {
  return <BindContactPage channel="phone" />;
}
