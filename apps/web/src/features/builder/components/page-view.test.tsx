import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { BuilderAction, PageElementArea } from '@pagewright/shared';
import '../../../lib/i18n';
import { validateBuilder } from '../api/validate-builder';
import { ActionCard, type CardMenuMode } from './action-card';
import { draftAction } from './dialogs/test-support';
import { areaAt, toPagePoint } from './page-view';

const area = (id: number, x: number, y: number, width: number, height: number): PageElementArea => ({
  id,
  parentId: null,
  x,
  y,
  width,
  height,
  selector: `#a${id}`,
  xpath: `/a${id}`,
  textContent: '',
  hasText: false,
  containsHref: false,
  tagName: 'div',
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('page view coordinates', () => {
  it('maps a point of the scaled picture to page CSS pixels', () => {
    const box = { left: 100, top: 50, width: 640, height: 400 };
    const frame = { width: 1280, height: 800 };
    expect(toPagePoint({ clientX: 100 + 320, clientY: 50 + 100 }, box, frame)).toEqual({ x: 640, y: 200 });
    // Outside the picture (a border pixel) stays on the page.
    expect(toPagePoint({ clientX: 90, clientY: 460 }, box, frame)).toEqual({ x: 0, y: 799 });
  });

  it('finds the smallest area under the point, not its containers', () => {
    const areas = [area(0, 0, 0, 1280, 800), area(1, 100, 100, 400, 200), area(2, 120, 120, 50, 20)];
    expect(areaAt(areas, { x: 130, y: 130 })?.id).toBe(2);
    expect(areaAt(areas, { x: 300, y: 250 })?.id).toBe(1);
    expect(areaAt(areas, { x: 900, y: 700 })?.id).toBe(0);
    expect(areaAt([], { x: 1, y: 1 })).toBeNull();
  });
});

describe('validation stream', () => {
  it('follows progress lines as they arrive, even split across chunks, then reads the result', async () => {
    const result = {
      error: null,
      code: null,
      data: { sequence: null, actions: [{ sequence: 10, validation: 'SUCCESS', errorMessage: null }] },
    };
    const chunks = ['0|NAVI', 'GATE\n50|CLI', `CK\n100|END\n${JSON.stringify(result).slice(0, 20)}`];
    chunks.push(`${JSON.stringify(result).slice(20)}\n`);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    const fetchStub = vi.fn(async () => new Response(body, { status: 200 }));
    vi.stubGlobal('fetch', fetchStub);
    const progress: string[] = [];
    const answer = await validateBuilder('EXTRACTOR', (line) =>
      progress.push(`${line.progress}|${line.actionType}`),
    );
    expect(progress).toEqual(['0|NAVIGATE', '50|CLICK', '100|END']);
    expect(answer).toEqual(result);
    expect(fetchStub).toHaveBeenCalledWith(
      '/api/extractor/validate?extractorType=EXTRACTOR',
      expect.anything(),
    );
  });
});

describe('action card', () => {
  const action: BuilderAction = draftAction(20, 'GET_TEXT', {
    id: 'a1',
    label: 'Welcome',
    selectorValue: '#welcome',
    validation: 'ERROR',
    errorMessage: 'No Such Element (100007): #welcome',
  });
  const renderCard = (menuMode: CardMenuMode) =>
    render(
      <ActionCard
        action={action}
        picture={null}
        isUnfinished={false}
        menuMode={menuMode}
        onEdit={vi.fn()}
        onEditSequence={vi.fn()}
        onRemove={vi.fn()}
        onCancel={vi.fn()}
        onEnlarge={vi.fn()}
      />,
    );

  it('shows the error of a failed validation and the full menu in NONE', () => {
    renderCard('full');
    expect(screen.getByRole('alert').textContent).toBe('No Such Element (100007): #welcome');
    fireEvent.click(screen.getByRole('button', { name: 'Actions of step 20' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Edit',
      'Edit sequence',
      'Remove',
    ]);
  });

  it('offers only Cancel while creating or editing, and no menu while validating', () => {
    renderCard('cancel');
    fireEvent.click(screen.getByRole('button', { name: 'Actions of step 20' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Cancel']);
    cleanup();
    renderCard('none');
    expect(screen.queryByRole('button', { name: 'Actions of step 20' })).toBeNull();
  });
});
