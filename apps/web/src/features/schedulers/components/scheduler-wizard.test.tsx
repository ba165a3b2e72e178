import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { MESSAGES, type ExtractorListItem, type SchedulerDto } from '@pagewright/shared';
import { Toaster } from '../../../components/toaster';
import '../../../lib/i18n';
import { PATHS } from '../../../lib/paths';
import { schedulerWizardLocation } from '../wizard-location';
import { NewSchedulerPage } from './new-scheduler-page';
import { SchedulerWizardPage } from './scheduler-wizard';
import { sentJson, urlOf } from '../../../test-support/fetch';

const EXTRACTOR_ID = '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b';
const INSERTOR_ID = '2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c';
const SCHEDULER_ID = '3a4b5c6d-7e8f-4a9b-8c1d-2e3f4a5b6c7d';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const listItem = (id: string, name: string, extractorType: 'EXTRACTOR' | 'INSERTOR'): ExtractorListItem => ({
  id,
  name,
  description: `${name} flow`,
  extractorType,
  viewerEmail: null,
  status: null,
  errorMessages: [],
  errorMessage: null,
  lastRunId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  inputs: [],
});

const savedScheduler: SchedulerDto = {
  id: SCHEDULER_ID,
  name: 'Nightly',
  description: 'Every night',
  scheduleType: 'DAILY',
  minuteInterval: null,
  time: '02:30:00',
  daysOfWeek: [],
  dayOfMonth: null,
  timeZone: 'Europe/Berlin',
  extractorIds: [EXTRACTOR_ID],
  extractors: [{ id: EXTRACTOR_ID, name: 'Shop prices', extractorType: 'EXTRACTOR' }],
  nextRunAt: '2025-01-02T01:30:00.000Z',
  lastRun: null,
  updatedAt: '2025-01-01T00:00:00.000Z',
};

/** The API as the screens see it; `saveAnswer` is what PUT answers. */
let saveAnswer: () => Response;
let fetchMock: Mock<typeof fetch>;
const sentSaves = () =>
  fetchMock.mock.calls
    .filter(
      ([url, init]) => urlOf(url) === '/api/extractor/scheduler/' && (init as RequestInit).method === 'PUT',
    )
    .map(([, init]) => sentJson(init));

beforeEach(() => {
  saveAnswer = () => json({ ...savedScheduler, message: MESSAGES['scheduler.saved'] });
  fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input);
    if (url === '/api/extractor/scheduler/timezone')
      return Promise.resolve(
        json({ timeZones: ['UTC', 'Europe/Berlin', 'Asia/Tokyo'], serverTimeZone: 'UTC' }),
      );
    if (url === '/api/extractor?extractorType=EXTRACTOR')
      return Promise.resolve(json([listItem(EXTRACTOR_ID, 'Shop prices', 'EXTRACTOR')]));
    if (url === '/api/extractor?extractorType=INSERTOR')
      return Promise.resolve(json([listItem(INSERTOR_ID, 'Order form', 'INSERTOR')]));
    if (url === '/api/extractor/scheduler/' && init?.method === 'PUT') return Promise.resolve(saveAnswer());
    if (url === '/api/extractor/scheduler/') return Promise.resolve(json([savedScheduler]));
    if (url === `/api/extractor/scheduler/${SCHEDULER_ID}`) return Promise.resolve(json(savedScheduler));
    return Promise.reject(new Error(`unexpected call ${url}`));
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  // Toasts live in a store outside React: close them so the next test starts without any.
  for (const toast of screen.queryAllByTestId('toast'))
    fireEvent.click(within(toast).getByRole('button', { name: 'Close' }));
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(entry: { pathname: string; search?: string; state?: unknown }) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path={PATHS.schedulerNew} element={<NewSchedulerPage />} />
          <Route path={PATHS.schedulerWizard} element={<SchedulerWizardPage />} />
          <Route path={PATHS.dashboard} element={<p>Dashboard</p>} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup({ delay: null });
}

function renderNewWizard() {
  const location = schedulerWizardLocation({
    schedulerId: null,
    name: 'Nightly',
    description: 'Every night',
  });
  return renderAt({ pathname: location.to, state: location.state });
}

const number = (name: string) => screen.getByRole<HTMLInputElement>('spinbutton', { name });
const next = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: 'Next' }));

async function chooseFrequency(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(await screen.findByRole('combobox', { name: 'Frequency' }));
  await user.click(await screen.findByRole('option', { name: label }));
}

describe('scheduler wizard, step 1: frequency', () => {
  it('asks for the frequency first', async () => {
    const user = renderNewWizard();
    expect(await screen.findByRole('heading', { name: 'Nightly' })).toBeTruthy();
    await next(user);
    expect(screen.getByText(MESSAGES['scheduler.frequency.required'])).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Run Shop prices' })).toBeNull();
  });

  it('Interval asks for the minutes', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Interval');
    await next(user);
    expect(screen.getByText(MESSAGES['scheduler.interval.required'])).toBeTruthy();
    expect(number('Interval in minutes').getAttribute('aria-invalid')).toBe('true');
  });

  it('Daily asks for the hour and the minute', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Daily');
    await next(user);
    expect(screen.getByText(MESSAGES['scheduler.hour.required'])).toBeTruthy();
    expect(screen.getByText(MESSAGES['scheduler.minute.required'])).toBeTruthy();
    await user.type(number('Hour'), '9');
    expect(screen.queryByText(MESSAGES['scheduler.hour.required'])).toBeNull();
    expect(screen.getByText(MESSAGES['scheduler.minute.required'])).toBeTruthy();
  });

  it('Weekly asks for a day of the week', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Weekly');
    await user.type(number('Hour'), '8');
    await user.type(number('Minute'), '0');
    await next(user);
    expect(screen.getByText(MESSAGES['scheduler.day.of.week.required'])).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'Friday' }));
    expect(screen.queryByText(MESSAGES['scheduler.day.of.week.required'])).toBeNull();
  });

  it('Monthly asks for the day of the month', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Monthly');
    await user.type(number('Hour'), '7');
    await user.type(number('Minute'), '15');
    await next(user);
    expect(screen.getByText(MESSAGES['scheduler.day.of.month.required'])).toBeTruthy();
    expect(screen.queryByText(MESSAGES['scheduler.hour.required'])).toBeNull();
  });

  it('an interval of 0 stays 0 and Next refuses it with the spec’s text (never saved as every minute)', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Interval');
    await user.type(number('Interval in minutes'), '0');
    await user.tab();
    expect(number('Interval in minutes').value).toBe('0');
    await next(user);
    expect(screen.getByText(MESSAGES['scheduler.interval.required'])).toBeTruthy();
    expect(number('Interval in minutes').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('checkbox', { name: 'Run Shop prices' })).toBeNull();
    expect(sentSaves()).toEqual([]);
  });

  it('clamps each number to its maximum at once; a number below the minimum is refused, not raised', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Interval');
    await user.type(number('Interval in minutes'), '5000');
    expect(number('Interval in minutes').value).toBe('1440');

    await chooseFrequency(user, 'Monthly');
    await user.type(number('Hour'), '99');
    expect(number('Hour').value).toBe('23');
    await user.type(number('Minute'), '75');
    expect(number('Minute').value).toBe('59');
    await user.type(number('Day of the month'), '45');
    expect(number('Day of the month').value).toBe('31');
    await user.clear(number('Day of the month'));
    await user.type(number('Day of the month'), '0');
    await user.tab();
    expect(number('Day of the month').value).toBe('0');
    await next(user);
    expect(screen.getByText(MESSAGES['scheduler.day.of.month.required'])).toBeTruthy();
    // A leading zero stays while typing: "05" is not turned into 15.
    await user.clear(number('Minute'));
    await user.type(number('Minute'), '05');
    expect(number('Minute').value).toBe('05');
  });

  it('blocks the minus, plus and e keys (digits only)', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Daily');
    await user.type(number('Hour'), '-1e+2');
    expect(number('Hour').value).toBe('12');
    await user.type(number('Minute'), '4.5');
    expect(number('Minute').value).toBe('45');
  });

  it('takes at most 4 characters', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Interval');
    await user.type(number('Interval in minutes'), '012345');
    expect(number('Interval in minutes').value).toBe('0123');
  });

  it('offers the time zones, starting with the browser’s, for times of day only', async () => {
    const user = renderNewWizard();
    await chooseFrequency(user, 'Interval');
    expect(screen.queryByRole('combobox', { name: 'Time zone' })).toBeNull();
    await chooseFrequency(user, 'Daily');
    const zone = screen.getByRole<HTMLInputElement>('combobox', { name: 'Time zone' });
    expect(zone.value).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await user.click(zone);
    await user.click(await screen.findByRole('option', { name: 'Asia/Tokyo' }));
    expect(zone.value).toBe('Asia/Tokyo');
  });
});

describe('scheduler wizard, step 2: extractors', () => {
  async function toExtractorStep(user: ReturnType<typeof userEvent.setup>) {
    await chooseFrequency(user, 'Interval');
    await user.type(number('Interval in minutes'), '15');
    await next(user);
    await screen.findByRole('checkbox', { name: 'Run Shop prices' });
  }

  async function toExtractorStepWeekly(user: ReturnType<typeof userEvent.setup>) {
    await chooseFrequency(user, 'Weekly');
    await user.type(number('Hour'), '8');
    await user.type(number('Minute'), '30');
    await user.click(screen.getByRole('checkbox', { name: 'Monday' }));
    await user.click(screen.getByRole('checkbox', { name: 'Friday' }));
    await user.click(screen.getByRole('combobox', { name: 'Time zone' }));
    await user.click(await screen.findByRole('option', { name: 'Europe/Berlin' }));
    await next(user);
    await screen.findByRole('checkbox', { name: 'Run Shop prices' });
  }

  it('lists extractors and insertors with their kind; Save needs one', async () => {
    const user = renderNewWizard();
    await toExtractorStep(user);
    const list = screen.getByRole('list', { name: 'Extractors and insertors to run' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Shop pricesExtractor', 'Order formInsertor']);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(MESSAGES['scheduler.extractors.required'])).toBeTruthy();
    expect(sentSaves()).toEqual([]);
  });

  it('saves the timetable and the chosen extractors, then returns to the dashboard', async () => {
    const user = renderNewWizard();
    await toExtractorStepWeekly(user);
    await user.click(screen.getByRole('checkbox', { name: 'Run Order form' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Dashboard')).toBeTruthy();
    expect(screen.getByTestId('toast').textContent).toContain(MESSAGES['scheduler.saved']);
    expect(sentSaves()).toEqual([
      {
        id: null,
        name: 'Nightly',
        description: 'Every night',
        extractorIds: [INSERTOR_ID],
        scheduleType: 'WEEKLY',
        minuteInterval: null,
        time: '08:30:00',
        daysOfWeek: ['MONDAY', 'FRIDAY'],
        dayOfMonth: null,
        timeZone: 'Europe/Berlin',
      },
    ]);
  });

  it('shows the conflict text on a 409 and stays', async () => {
    saveAnswer = () =>
      json({ message: MESSAGES['scheduler.conflict'], code: 'NAME_EXISTS', field: 'name' }, 409);
    const user = renderNewWizard();
    await toExtractorStep(user);
    await user.click(screen.getByRole('checkbox', { name: 'Run Shop prices' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('toast').textContent).toContain(MESSAGES['scheduler.conflict']),
    );
    expect(screen.getAllByText(MESSAGES['scheduler.conflict']).length).toBeGreaterThan(1);
    expect(screen.queryByText('Dashboard')).toBeNull();
  });

  it('shows the server’s save error on other failures', async () => {
    saveAnswer = () => json({ message: MESSAGES['scheduler.save.error'], code: 'SERVICE_UNAVAILABLE' }, 503);
    const user = renderNewWizard();
    await toExtractorStep(user);
    await user.click(screen.getByRole('checkbox', { name: 'Run Shop prices' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('toast').textContent).toContain(MESSAGES['scheduler.save.error']),
    );
  });
});

describe('editing and the first page', () => {
  it('Edit opens at the frequency with the saved values and saves under the same id', async () => {
    const location = schedulerWizardLocation({ schedulerId: SCHEDULER_ID, name: 'Nightly', description: '' });
    const user = renderAt({
      pathname: PATHS.schedulerWizard,
      search: location.to.split('?')[1],
      state: location.state,
    });
    expect((await screen.findByRole('combobox', { name: 'Frequency' })).textContent).toBe('Daily');
    expect(number('Hour').value).toBe('02');
    expect(number('Minute').value).toBe('30');
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Time zone' }).value).toBe('Europe/Berlin');
    expect(screen.getByText('Every night')).toBeTruthy();
    await next(user);
    expect(await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Run Shop prices' })).toHaveProperty(
      'checked',
      true,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Dashboard');
    expect(sentSaves()).toMatchObject([{ id: SCHEDULER_ID, time: '02:30:00', extractorIds: [EXTRACTOR_ID] }]);
  });

  it('the first page refuses a name already used and goes on with a new one', async () => {
    const user = renderAt({ pathname: PATHS.schedulerNew });
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/extractor/scheduler/', expect.anything()),
    );
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Nightly');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Again');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(MESSAGES['scheduler.list.error.unique'])).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' 2');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Nightly 2' })).toBeTruthy();
    // Back returns to the first page with what was typed.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect((await screen.findByRole<HTMLInputElement>('textbox', { name: 'Name' })).value).toBe('Nightly 2');
  });

  it('a reload of a new scheduler’s wizard (no router state) goes back to its first page', async () => {
    renderAt({ pathname: PATHS.schedulerWizard });
    expect(await screen.findByRole('heading', { name: 'New scheduler' })).toBeTruthy();
  });
});
