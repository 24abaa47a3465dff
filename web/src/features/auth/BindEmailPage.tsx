import { BindContactPage } from './BindContactPage';

/** /user/bind-email: bind an e-mail address with a code sent to it. */
export default function BindEmailPage() {
  return <BindContactPage channel="email" />;
}
