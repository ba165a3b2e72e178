import { fireEvent, screen, within } from '@testing-library/react';

/**
 * What component tests of the SPA need beyond testing-library. Toasts live in a store outside
 * React: a test closes the ones it left, so the next test starts without any. A modal hides the
 * rest of the page from assistive tech while it is open, hence `hidden`.
 */
export function closeToasts(): void {
  for (const toast of screen.queryAllByTestId('toast'))
    fireEvent.click(within(toast).getByRole('button', { name: 'Close', hidden: true }));
}

/** jsdom has no PointerEvent: pointer events become mouse events with a pointer id. */
export function installPointerEvents(): void {
  if (typeof window.PointerEvent !== 'undefined') return;
  class PointerEventShim extends MouseEvent {
    readonly pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
    }
  }
  window.PointerEvent = PointerEventShim as unknown as typeof PointerEvent;
}

/** jsdom lays nothing out: gives an element a box at the top-left corner of the screen. */
export function placeAt(element: Element, width: number, height: number): void {
  element.getBoundingClientRect = () => ({
    left: 0,
    top: 0,
    width,
    height,
    right: width,
    bottom: height,
    x: 0,
    y: 0,
    toJSON: () => ({}),
  });
}
