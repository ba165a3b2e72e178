import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../../../../lib/i18n';
import { AnnotationEditor } from './annotation-editor';
import type { AnnotationClass, BoxRegion } from './types';
import { installPointerEvents, placeAt } from '../../../../test-support/dom';

installPointerEvents();

const CLASSES: AnnotationClass[] = [
  { label: 'Account number', type: 'TEXT' },
  { label: 'Resident', type: 'CHECKBOX' },
];

const saved: BoxRegion = {
  id: 'saved-1',
  x: 0.5,
  y: 0.5,
  w: 0.2,
  h: 0.1,
  cls: 'Account number',
  type: 'TEXT',
  anchorText: null,
  color: '#000',
};

function renderEditor(regions: BoxRegion[] = [saved]) {
  const onRegionsChange = vi.fn();
  const onPreviousPage = vi.fn();
  const onNextPage = vi.fn();
  render(
    <AnnotationEditor
      imageSrc="/page.jpg"
      imageWidth={1000}
      imageHeight={1000}
      initialRegions={regions}
      classes={CLASSES}
      onClassesChange={() => undefined}
      onRegionsChange={onRegionsChange}
      enabledTools={['select', 'create-box']}
      onPreviousPage={onPreviousPage}
      onNextPage={onNextPage}
      pageLabel="Page 1 of 2"
    />,
  );
  const canvas = screen.getByTestId('annotation-canvas');
  // jsdom lays nothing out: the SVG is 1000 × 1000 screen pixels at the top-left corner.
  placeAt(canvas, 1000, 1000);
  const lastRegions = () => onRegionsChange.mock.calls.at(-1)?.[0] as BoxRegion[];
  return {
    canvas,
    onRegionsChange,
    onPreviousPage,
    onNextPage,
    lastRegions,
    user: userEvent.setup({ delay: null }),
  };
}

/** A drag on the canvas from one screen point to another (timestamps past the 16 ms throttle). */
function drag(canvas: Element, from: [number, number], to: [number, number]) {
  fireEvent.pointerDown(canvas, { clientX: from[0], clientY: from[1], pointerId: 1 });
  fireEvent.pointerMove(canvas, { clientX: to[0], clientY: to[1], pointerId: 1, timeStamp: 1000 });
  fireEvent.pointerUp(canvas, { clientX: to[0], clientY: to[1], pointerId: 1 });
}

afterEach(cleanup);

describe('the annotation editor', () => {
  it('offers only select and create box in the template modal (spec)', () => {
    renderEditor();
    expect(screen.getByRole('button', { name: 'Select' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create box' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pan' })).toBeNull();
  });

  it('draws a box with b, in page fractions, and drops one under 0.002 of the page', async () => {
    const { canvas, lastRegions, user } = renderEditor([]);
    await user.keyboard('b');
    drag(canvas, [100, 200], [400, 260]);
    expect(screen.getAllByTestId('annotation-box')).toHaveLength(1);
    expect(lastRegions()[0]).toMatchObject({ x: 0.1, y: 0.2, cls: 'Account number', type: 'TEXT' });
    expect(lastRegions()[0]?.w).toBeCloseTo(0.3);
    expect(lastRegions()[0]?.h).toBeCloseTo(0.06);
    drag(canvas, [500, 500], [501, 700]);
    expect(screen.getAllByTestId('annotation-box')).toHaveLength(1);
  });

  it('answers the hotkeys: a class with 2, delete with d, Esc back to select, undo with Ctrl+Z, arrows page', async () => {
    const { canvas, lastRegions, onPreviousPage, onNextPage, user } = renderEditor();
    const [box] = screen.getAllByTestId('annotation-box');
    fireEvent.pointerDown(box?.querySelector('rect') as Element, {
      clientX: 550,
      clientY: 550,
      pointerId: 1,
    });
    fireEvent.pointerUp(canvas, { clientX: 550, clientY: 550, pointerId: 1 });
    await user.keyboard('2');
    expect(lastRegions()[0]).toMatchObject({ cls: 'Resident', type: 'CHECKBOX' });
    await user.keyboard('d');
    expect(lastRegions()).toEqual([]);
    await user.keyboard('{Control>}z{/Control}');
    expect(lastRegions()[0]).toMatchObject({ cls: 'Resident' });
    await user.keyboard('b');
    expect(screen.getByRole('button', { name: 'Create box' }).getAttribute('aria-pressed')).toBe('true');
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Select' }).getAttribute('aria-pressed')).toBe('true');
    await user.keyboard('{ArrowLeft}{ArrowRight}{ArrowRight}');
    expect(onPreviousPage).toHaveBeenCalledTimes(1);
    expect(onNextPage).toHaveBeenCalledTimes(2);
  });

  it('ignores hotkeys while a field is being typed in', async () => {
    const { lastRegions, user } = renderEditor();
    await user.type(screen.getByRole('textbox', { name: 'Field name' }), 'bd');
    expect(lastRegions()).toBeUndefined();
    expect(screen.getAllByTestId('annotation-box')).toHaveLength(1);
  });
});
