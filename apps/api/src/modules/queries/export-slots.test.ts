import { describe, expect, it } from 'vitest';
import { createExportSlots } from './export-slots.js';

describe('export slots', () => {
  it('gives out at most the cap, and a slot given back once is free again', () => {
    const slots = createExportSlots(2);
    const first = slots.take();
    const second = slots.take();
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(slots.take()).toBeNull();
    expect(slots.running).toBe(2);

    first?.();
    // Giving the same slot back twice (the stream's end and its close) frees it only once.
    first?.();
    expect(slots.running).toBe(1);
    expect(slots.take()).not.toBeNull();
    expect(slots.take()).toBeNull();
  });
});
