import { describe, expect, it } from 'vitest';
import { createExportSlots, type ExportSlot } from './export-slots.js';

const giveBackOf = (slot: ExportSlot) => ('giveBack' in slot ? slot.giveBack : null);

describe('export slots', () => {
  it('gives out at most the cap, and a slot given back once is free again', () => {
    const slots = createExportSlots(2, 2);
    const first = giveBackOf(slots.take('ann'));
    const second = giveBackOf(slots.take('bob'));
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(slots.take('cid')).toEqual({ refusal: 'process' });
    expect(slots.running).toBe(2);

    first?.();
    // Giving the same slot back twice (the stream's end and its close) frees it only once.
    first?.();
    expect(slots.running).toBe(1);
    expect(giveBackOf(slots.take('cid'))).not.toBeNull();
    expect(slots.take('cid')).toEqual({ refusal: 'process' });
  });

  it("keeps one user from taking every slot, and gives a user's slot back to that user", () => {
    const slots = createExportSlots(4, 2);
    const mine = [slots.take('ann'), slots.take('ann')].map(giveBackOf);
    expect(slots.take('ann')).toEqual({ refusal: 'user' });
    expect(giveBackOf(slots.take('bob'))).not.toBeNull();
    mine[0]?.();
    expect(giveBackOf(slots.take('ann'))).not.toBeNull();
    expect(slots.running).toBe(3);
  });
});
