import { describe, expect, it } from 'vitest';
import { targetManifestSchema } from '../protocol/target-manifest';
import { initialFormState, reduceParameterForm } from './parameter-form-state';

const manifest = targetManifestSchema.parse({
  id: 'particles',
  title: 'Particle field',
  description: 'Particles.',
  entry: 'index.html',
  params: {
    settings: {
      speed: { type: 'number', unit: 'm/s', min: 0, max: 50, step: 0.5, value: 8 },
      mode: { type: 'enum', options: ['auto', 'manual'], value: 'auto' },
      color: { type: 'color', value: '#5ec8ff' },
      label: { type: 'string', value: 'hello' },
    },
    view: {
      show_vectors: { type: 'boolean', value: false },
      position: { type: 'array', length: 3, unit: 'world units', min: -100, max: 100, value: [0, 12, 12] },
    },
  },
});

describe('reduceParameterForm', () => {
  const start = initialFormState('particles', manifest, { speed: 10 });

  it('shows a local edit at once and keeps it while it is on its way', () => {
    const editing = reduceParameterForm(start, { type: 'edit', param: 'speed', value: 14 });
    expect(editing.values.speed).toBe(14);
    const remote = reduceParameterForm(editing, {
      type: 'remote-state',
      targetId: 'particles',
      state: { speed: 12, mode: 'manual' },
    });
    expect(remote.values.speed).toBe(14);
    expect(remote.values.mode).toBe('manual');
    expect(remote.remoteChanges).toEqual({ mode: 1 });
    expect(remote.results.mode).toEqual({ tone: 'info', message: 'Changed elsewhere to manual.' });
    expect(remote.results.speed).toBeUndefined();
  });

  it('settles on the value the tool reports as applied', () => {
    const editing = reduceParameterForm(start, { type: 'edit', param: 'speed', value: 80 });
    const settled = reduceParameterForm(editing, {
      type: 'settled',
      param: 'speed',
      output: { ok: true, applied: { speed: 50 }, clamped: [{ param: 'speed', requested: 80, applied: 50 }] },
    });
    expect(settled.values.speed).toBe(50);
    expect(settled.editing).toEqual({});
    expect(settled.results.speed.tone).toBe('warning');
    const later = reduceParameterForm(settled, { type: 'remote-state', targetId: 'particles', state: { speed: 33 } });
    expect(later.values.speed).toBe(33);
    expect(later.remoteChanges.speed).toBe(1);
  });

  it('keeps the edited value and shows the error when the tool refuses it', () => {
    const editing = reduceParameterForm(start, { type: 'edit', param: 'speed', value: 3 });
    const refused = reduceParameterForm(editing, {
      type: 'settled',
      param: 'speed',
      output: { ok: false, error: 'No stage.' },
    });
    expect(refused.results.speed).toEqual({ tone: 'error', message: 'No stage.' });
    const failed = reduceParameterForm(editing, {
      type: 'send-failed',
      param: 'speed',
      error: 'Extension context invalidated.',
    });
    expect(failed.results.speed.message).toBe('Extension context invalidated.');
    expect(failed.editing).toEqual({});
  });

  it('ignores states of another target and values that did not change', () => {
    expect(reduceParameterForm(start, { type: 'remote-state', targetId: 'chart', state: { speed: 1 } })).toBe(start);
    expect(
      reduceParameterForm(start, {
        type: 'remote-state',
        targetId: 'particles',
        state: { speed: 10, position: [0, 12, 12] },
      }),
    ).toBe(start);
  });

  it('returns to the values the reset reports and clears results', () => {
    const edited = reduceParameterForm(reduceParameterForm(start, { type: 'edit', param: 'speed', value: 3 }), {
      type: 'settled',
      param: 'speed',
      output: { ok: true, applied: { speed: 3 } },
    });
    const reset = reduceParameterForm(edited, {
      type: 'reset-done',
      output: { ok: true, targetId: 'particles', values: { speed: 8, mode: 'auto' } },
    });
    expect(reset.values.speed).toBe(8);
    expect(reset.results).toEqual({});
    expect(reset.notice?.tone).toBe('ok');
    const refused = reduceParameterForm(edited, {
      type: 'reset-done',
      output: { ok: false, error: 'The stage did not answer.' },
    });
    expect(refused.notice).toEqual({ tone: 'error', message: 'The stage did not answer.' });
    expect(refused.values.speed).toBe(3);
  });

  it('takes the values its own reset brings without calling them changed elsewhere', () => {
    const resetting = reduceParameterForm(start, { type: 'reset-started' });
    const arrived = reduceParameterForm(resetting, {
      type: 'remote-state',
      targetId: 'particles',
      state: { speed: 8 },
    });
    expect(arrived.values.speed).toBe(8);
    expect(arrived.results).toEqual({});
    expect(arrived.remoteChanges).toEqual({});
    const done = reduceParameterForm(arrived, {
      type: 'reset-done',
      output: { ok: true, targetId: 'particles', values: { speed: 8, mode: 'auto' } },
    });
    expect(done.resetting).toBeUndefined();
    const later = reduceParameterForm(done, { type: 'remote-state', targetId: 'particles', state: { speed: 9 } });
    expect(later.results.speed?.message).toBe('Changed elsewhere to 9 m/s.');
  });
});
