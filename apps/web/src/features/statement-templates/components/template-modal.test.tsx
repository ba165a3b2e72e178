import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, fireEvent, within, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MESSAGES, type TemplateImageDto, type TemplateMappingDto } from '@pagewright/shared';
import { Toaster } from '../../../components/toaster';
import '../../../lib/i18n';
import { TemplateModal } from './template-modal';
import { closeToasts, installPointerEvents, placeAt } from '../../../test-support/dom';
import { sentJson, urlOf } from '../../../test-support/fetch';

installPointerEvents();

const TEMPLATE = {
  id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
  templateName: 'KYC',
  pageCount: 1,
  mappingCount: 1,
};
const PAGE: TemplateImageDto = {
  id: '2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c',
  imageUuid: '3a4b5c6d-7e8f-4a9b-8c1d-2e3f4a5b6c7d',
  name: 'sample page 1',
  pageNumber: 1,
  pixelWidth: 1000,
  pixelHeight: 1000,
  url: '/api/statement-recognition-template/image/uuid/x?expires=1&signature=s',
};
const SAVED: TemplateMappingDto = {
  id: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
  x: 0.5,
  y: 0.5,
  w: 0.2,
  h: 0.1,
  mapping_type: 'TEXT',
  mapping_label: 'Account number',
  anchor_text: 'Account number:',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let fetchMock: Mock<typeof fetch>;
const puts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([url, init]) => ({
      url: urlOf(url),
      body: sentJson(init) as { mappings: unknown[] },
    }));

beforeEach(() => {
  fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input);
    if (url === `/api/statement-recognition-template/images/template/${TEMPLATE.id}`)
      return Promise.resolve(json([PAGE]));
    if (url === `/api/statement-recognition-template/mapping/image/${PAGE.id}`)
      return Promise.resolve(json([SAVED]));
    if (url === `/api/statement-recognition-template/mappings/image/${PAGE.id}` && init?.method === 'PUT')
      return Promise.resolve(json([]));
    return Promise.reject(new Error(`unexpected call ${url}`));
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  closeToasts();
  cleanup();
  vi.unstubAllGlobals();
});

async function openModal() {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TemplateModal template={TEMPLATE} onClose={onClose} />
      <Toaster />
    </QueryClientProvider>,
  );
  const canvas = await screen.findByTestId('annotation-canvas');
  placeAt(canvas, 1000, 1000);
  return { canvas, onClose };
}

function draw(canvas: Element, from: [number, number], to: [number, number]) {
  fireEvent.pointerDown(canvas, { clientX: from[0], clientY: from[1] });
  fireEvent.pointerUp(canvas, { clientX: to[0], clientY: to[1] });
}

describe('the template modal', () => {
  it("saves a page's boxes by replacing them at once, with the spec's snake_case fields", async () => {
    const { canvas, onClose } = await openModal();
    expect(screen.getAllByTestId('annotation-box')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Create box' }));
    draw(canvas, [100, 100], [300, 140]);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]?.body.mappings).toEqual([
      {
        x: 0.5,
        y: 0.5,
        w: 0.2,
        h: 0.1,
        pixel_width: 1000,
        pixel_height: 1000,
        mapping_type: 'TEXT',
        mapping_label: 'Account number',
        anchor_text: 'Account number:',
      },
      expect.objectContaining({
        x: 0.1,
        y: 0.1,
        mapping_type: 'TEXT',
        mapping_label: 'Account number',
        anchor_text: null,
      }),
    ]);
    expect(await screen.findByText(MESSAGES['template.mapping.added'])).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
  });

  it('refuses to save a box without a field name, and sends nothing', async () => {
    const answer = fetchMock.getMockImplementation();
    if (!answer) throw new Error('beforeEach answers the other calls');
    fetchMock.mockImplementation((input: RequestInfo | URL, init?: RequestInit) =>
      urlOf(input).endsWith(`/mapping/image/${PAGE.id}`) ? Promise.resolve(json([])) : answer(input, init),
    );
    const { canvas } = await openModal();
    fireEvent.click(screen.getByRole('button', { name: 'Create box' }));
    draw(canvas, [100, 100], [300, 140]);
    expect(screen.getAllByTestId('annotation-box')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES['template.mapping.label.required'])).toBeTruthy();
    expect(puts()).toEqual([]);
  });

  it('keeps its work on Esc and asks before Close drops unsaved boxes', async () => {
    const { canvas, onClose } = await openModal();
    fireEvent.click(screen.getByRole('button', { name: 'Create box' }));
    draw(canvas, [100, 100], [300, 140]);
    // Esc picks the select tool; the editor stays open with its two boxes.
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getAllByTestId('annotation-box')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Select' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getAllByTestId('annotation-box')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Close without saving?' })).getByRole('button', {
        name: 'Close without saving',
      }),
    );
    expect(onClose).toHaveBeenCalled();
  });

  it('closes at once when nothing changed', async () => {
    const { onClose } = await openModal();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });
});
