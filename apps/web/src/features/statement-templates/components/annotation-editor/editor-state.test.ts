import { describe, expect, it } from 'vitest';
import { boxBetween, editorReducer, initialEditorState, isTooSmall, type EditorState } from './editor-state';

const create = (state: EditorState, id: string, box = { x: 0.1, y: 0.1, w: 0.2, h: 0.05 }) =>
  editorReducer(state, { type: 'create', id, box, cls: { label: 'Name', type: 'TEXT' } });

describe('the editor state', () => {
  it('drops a new box under 0.002 of the page in either direction', () => {
    const start = initialEditorState([]);
    expect(create(start, 'a', { x: 0.1, y: 0.1, w: 0.0019, h: 0.2 }).regions).toHaveLength(0);
    expect(create(start, 'a', { x: 0.1, y: 0.1, w: 0.2, h: 0.0019 }).regions).toHaveLength(0);
    expect(create(start, 'a', { x: 0.1, y: 0.1, w: 0.002, h: 0.002 }).regions).toHaveLength(1);
    expect(isTooSmall({ w: 0.5, h: 0.001 })).toBe(true);
  });

  it('keeps boxes inside the page', () => {
    const box = boxBetween({ x: 0.9, y: -0.2 }, { x: 1.4, y: 0.3 });
    expect([box.x, box.y, box.w, box.h].map((value) => Number(value.toFixed(6)))).toEqual([0.9, 0, 0.1, 0.3]);
    const moved = editorReducer(create(initialEditorState([]), 'a'), { type: 'move', id: 'a', dx: 2, dy: 2 });
    expect(moved.regions[0]).toMatchObject({ x: 0.8, y: 0.95 });
  });

  it('zooms between 5% and 200%', () => {
    const start = initialEditorState([]);
    expect(editorReducer(start, { type: 'zoom', zoom: 0.01 }).zoom).toBe(0.05);
    expect(editorReducer(start, { type: 'zoom', zoom: 9 }).zoom).toBe(2);
    expect(editorReducer(start, { type: 'zoom', zoom: 0.5 }).zoom).toBe(0.5);
  });

  it('undoes the last ten changes only', () => {
    let state = initialEditorState([]);
    for (let index = 1; index <= 11; index += 1) state = create(state, `box-${index}`);
    expect(state.history).toHaveLength(10);
    for (let index = 0; index < 12; index += 1) state = editorReducer(state, { type: 'undo' });
    // Eleven boxes, ten undone: the first stays (its change fell out of the history).
    expect(state.regions.map((region) => region.id)).toEqual(['box-1']);
  });

  it('resizes from a corner, deletes, and assigns a class with its type', () => {
    let state = create(initialEditorState([]), 'a');
    state = editorReducer(state, { type: 'resize', id: 'a', corner: 'se', to: { x: 0.5, y: 0.4 } });
    const [resized] = state.regions;
    expect(
      [resized?.x, resized?.y, resized?.w, resized?.h].map((value) => Number(value?.toFixed(6))),
    ).toEqual([0.1, 0.1, 0.4, 0.3]);
    state = editorReducer(state, {
      type: 'assign',
      id: 'a',
      cls: { label: 'Signed', type: 'CHECKBOX' },
      colour: '#000',
    });
    expect(state.regions[0]).toMatchObject({ cls: 'Signed', type: 'CHECKBOX' });
    state = editorReducer(state, { type: 'delete', id: 'a' });
    expect(state.regions).toEqual([]);
    expect(editorReducer(state, { type: 'undo' }).regions[0]?.cls).toBe('Signed');
  });

  it('leaves a new box unselected, so the next class is for the next box', () => {
    let state = create(initialEditorState([]), 'a');
    expect(state.selectedId).toBeNull();
    state = editorReducer(state, { type: 'select', id: 'a' });
    expect(create(state, 'b').selectedId).toBeNull();
  });

  it('makes typing an anchor label one undo step, and another field or box another', () => {
    let state = create(initialEditorState([]), 'a');
    for (const text of ['T', 'To', 'Tot', 'Total'])
      state = editorReducer(state, { type: 'edit', id: 'a', changes: { anchorText: text } });
    expect(state.history.map((entry) => entry.kind)).toEqual(['create', 'edit']);
    state = editorReducer(state, { type: 'edit', id: 'a', changes: { type: 'CHECKBOX' } });
    expect(state.history).toHaveLength(3);
    state = editorReducer(state, { type: 'undo' });
    state = editorReducer(state, { type: 'undo' });
    expect(state.regions[0]?.anchorText).toBeNull();
    expect(state.regions).toHaveLength(1);
  });
});
