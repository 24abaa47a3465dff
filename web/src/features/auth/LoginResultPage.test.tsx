import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { setToken } from '@/lib/storage';
import LoginResultPage, { loginSucceeded } from './LoginResultPage';
import { renderPage, setUpI18n } from './test/harness';

describe('login result', () => {
  beforeAll(setUpI18n);

  it.each([
    ['success', null, true],
    ['SUCCESS', null, true],
    ['1', null, true],
    ['true', null, true],
    ['fail', 'tok', false],
    ['0', 'tok', false],
    ['error', null, false],
    [null, 'tok', true],
    [null, null, false],
    ['', null, false],
  ])('status %j with token %j reads as success: %s', (status, token, expected) => {
    expect(loginSucceeded(status, token)).toBe(expected);
  });

  it('shows success with the message and continues to the console', async () => {
    setToken('tok');
    renderPage(LoginResultPage, '/user/login-result?status=success&msg=Signed%20in%20with%20WeChat');
    expect(screen.getByTestId('login-success')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'You are logged in' })).toBeInTheDocument();
    expect(screen.getByText('Signed in with WeChat')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Continue to console' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('shows failure with a default message and goes back to the login page', async () => {
    renderPage(LoginResultPage, '/user/login-result?status=fail');
    expect(screen.getByTestId('login-failure')).toBeInTheDocument();
    expect(screen.getByText('We could not log you in with that account. Please try again.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to log in' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/user/login');
  });
});
