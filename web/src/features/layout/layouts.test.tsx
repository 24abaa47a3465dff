import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BlankLayout } from './BlankLayout';
import { CalibrationLayout } from './CalibrationLayout';
import { LAYOUTS } from './layouts';
import { GlobalMapLayout, MainLayout } from './MainLayout';
import { MobileLayout } from './MobileLayout';
import { setUpI18n, setWindowWidth } from './testing';

vi.mock('@/features/dialogs/SessionDialogs', () => ({ SessionDialogs: () => null }));

beforeAll(setUpI18n);

function show(Layout: React.ComponentType) {
  const router = createMemoryRouter([{ path: '/', element: <Layout />, children: [{ index: true, element: <p>page</p> }] }]);
  return render(<RouterProvider router={router} />);
}

describe('layouts', () => {
  it('draws every route layout in a frame', () => {
    expect(LAYOUTS).toEqual({
      main: MainLayout,
      globalMap: GlobalMapLayout,
      blank: BlankLayout,
      calibration: CalibrationLayout,
      mobileCalibration: MobileLayout,
      mobile: MobileLayout,
    });
  });

  it('sizes mobile text from the viewport and restores it on leaving', () => {
    setWindowWidth(414);
    const view = show(MobileLayout);
    expect(screen.getByText('page')).toBeInTheDocument();
    expect(document.documentElement.style.fontSize).toBe(`${414 / 11.04}px`);
    view.unmount();
    expect(document.documentElement.style.fontSize).toBe('');
  });

  it('names the calibration service in its frame', () => {
    show(CalibrationLayout);
    expect(screen.getByText('Calibration Service')).toBeInTheDocument();
    expect(screen.getByText('page')).toBeInTheDocument();
  });
});
