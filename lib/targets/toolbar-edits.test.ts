import { describe, expect, it } from 'vitest';
import { MAX_TOOLBAR_EDITS, TOOLBAR_EDITS_KEY, ToolbarEdits } from './toolbar-edits';

function memory() {
  const values = new Map<string, unknown>();
  return {
    values,
    storage: {
      get: async (key: string) => values.get(key),
      set: async (key: string, value: unknown) => void values.set(key, value),
    },
  };
}

describe('ToolbarEdits', () => {
  it('keeps each change with its time, oldest first, and loses none of several recorded at once', async () => {
    const { storage } = memory();
    let time = 100;
    const edits = new ToolbarEdits({ storage, now: () => (time += 1) });
    expect(await edits.load()).toEqual({ edits: [], dropped: false });
    await Promise.all([
      edits.record('particles', { speed: 20 }),
      edits.record('particles', { colour: 'red' }),
      edits.record('orbit', { radius: 40 }),
    ]);
    expect(await edits.load()).toEqual({
      edits: [
        { time: 101, targetId: 'particles', values: { speed: 20 } },
        { time: 102, targetId: 'particles', values: { colour: 'red' } },
        { time: 103, targetId: 'orbit', values: { radius: 40 } },
      ],
      dropped: false,
    });
  });

  it(`keeps the newest ${MAX_TOOLBAR_EDITS} and says that older ones were let go; reads anything else as none`, async () => {
    const { storage, values } = memory();
    let time = 0;
    const edits = new ToolbarEdits({ storage, now: () => (time += 1) });
    for (let index = 0; index < MAX_TOOLBAR_EDITS + 3; index++) await edits.record('particles', { speed: index });
    const kept = await edits.load();
    expect(kept.edits).toHaveLength(MAX_TOOLBAR_EDITS);
    expect(kept.edits[0]).toEqual({ time: 4, targetId: 'particles', values: { speed: 3 } });
    expect(kept.dropped).toBe(true);
    values.set(TOOLBAR_EDITS_KEY, { edits: 'broken' });
    expect(await edits.load()).toEqual({ edits: [], dropped: false });
  });
});
