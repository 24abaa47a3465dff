import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/http';
import { setUpI18n } from '@/test/harness';
import { emptyPoint, type ResultForm } from '../resultForm';
import { ResultEditor } from './ResultEditor';

beforeAll(setUpI18n);

const filled: ResultForm = {
  labName: 'Coldchain Calibration Lab', labAddress: '', traceability: '', customerName: "Alice's Pharmacy",
  customerAddress: '', itemType: 'Data logger',
  itemModel: 'RCW-360', itemSerial: 'RCW360A0000001', conditionOnReceipt: 'Intact', receivedOn: '2026-01-20',
  calibratedOn: '2026-01-21', method: 'CC-CAL-07', temperature: '21.5', humidity: '45', decisionRule: 'simple',
  asFound: [emptyPoint()], adjusted: false, asLeft: [], authorisedName: 'Wang Lei', authorisedRole: 'Technical manager', remarks: '',
};

const field = (id: string) => screen.getByTestId(`cl-${id}`);

describe('the results form', () => {
  it('shows each point\'s error as typed and sends as found and as left as text when adjusted', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(undefined);
    render(<ResultEditor initial={filled} onSave={onSave} onCancel={() => undefined} />);
    await user.type(field('asFound-0-reference'), '-20');
    await user.type(field('asFound-0-reading'), '-19.6');
    expect(screen.getByTestId('point-error-asFound-0')).toHaveTextContent('0.4');
    await user.type(field('asFound-0-uncertainty'), '0.1');
    expect(screen.queryByTestId('points-asLeft')).toBeNull();
    await user.click(screen.getByLabelText(/The device was adjusted/));
    const asLeft = screen.getByTestId('points-asLeft');
    expect(within(asLeft).getAllByTestId('point-asLeft')).toHaveLength(1);
    await user.type(field('asLeft-0-reference'), '-20');
    await user.type(field('asLeft-0-reading'), '-20.02');
    await user.type(field('asLeft-0-uncertainty'), '0.1');
    expect(screen.getByTestId('point-error-asLeft-0')).toHaveTextContent('-0.02');
    await user.click(screen.getByTestId('result-save'));
    expect(onSave).toHaveBeenCalledTimes(1);
    const [content] = onSave.mock.calls[0] as [Record<string, unknown>];
    expect(content.asFound).toEqual([{ reference: '-20', reading: '-19.6', uncertainty: '0.1', unit: '°C' }]);
    expect(content.asLeft).toEqual([{ reference: '-20', reading: '-20.02', uncertainty: '0.1', unit: '°C' }]);
    expect(content.environment).toEqual({ temperature: '21.5', humidity: '45' });
  });

  it('sends nothing while a rule is broken, and says which', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(<ResultEditor initial={{ ...filled, temperature: '75' }} onSave={onSave} onCancel={() => undefined} />);
    await user.click(screen.getByTestId('result-save'));
    expect(await screen.findByText('The lab temperature is between -10 and 60 °C')).toBeInTheDocument();
    expect(screen.getAllByText('This field is required').length).toBeGreaterThanOrEqual(3);  // the empty point
    await user.click(screen.getByLabelText(/The device was adjusted/));
    await user.click(within(screen.getByTestId('points-asLeft')).getByRole('button', { name: 'Remove point 1' }));
    await user.click(screen.getByTestId('result-save'));
    expect(await screen.findByText('An adjusted device needs its results as left')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('puts the server\'s refusal under the field it names, and asks a correction for its reason', async () => {
    const user = userEvent.setup();
    const refusal = new ApiError(422, 422, 'Invalid input', { 'asFound[0].reading': ['At most 6 decimals'] });
    const onSave = vi.fn().mockRejectedValueOnce(refusal).mockResolvedValue(undefined);
    const ready = { ...filled, asFound: [{ ...emptyPoint(), reference: '5', reading: '5.1', uncertainty: '0.1' }] };
    render(<ResultEditor correction initial={ready} onSave={onSave} onCancel={() => undefined} />);
    await user.click(screen.getByTestId('result-save'));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
    await user.type(screen.getByTestId('correct-reason'), 'Wrong reference value');
    await user.click(screen.getByTestId('result-save'));
    expect(await screen.findByText('At most 6 decimals')).toBeInTheDocument();
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ asLeft: [] }), 'Wrong reference value');
  });
});
