import { LoginForm } from './components/LoginForm';
import './calibration.css';

/** /calibration/login: the console account, or on without one. */
export default function LoginPage() {
  return (
    <div className="jc-cal-page jc-cal-narrow">
      <LoginForm home="/calibration/form" guest="/calibration/form" />
    </div>
  );
}
