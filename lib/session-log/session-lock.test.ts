import { describe, expect, it } from 'vitest';
import { SessionLock } from './session-lock';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('SessionLock', () => {
  it('runs the tasks of one key strictly one after another, in call order', async () => {
    const lock = new SessionLock();
    const trace: string[] = [];
    const task = (name: string) => async () => {
      trace.push(`${name} start`);
      await tick();
      trace.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([lock.run('a', task('1')), lock.run('a', task('2')), lock.run('a', task('3'))]);
    expect(results).toEqual(['1', '2', '3']);
    expect(trace).toEqual(['1 start', '1 end', '2 start', '2 end', '3 start', '3 end']);
  });

  it('lets different keys run side by side', async () => {
    const lock = new SessionLock();
    let release: () => void = () => undefined;
    const blocked = lock.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(lock.run('b', async () => 'b ran')).resolves.toBe('b ran');
    release();
    await blocked;
  });

  it('keeps going after a task fails, and hands the failure to its caller only', async () => {
    const lock = new SessionLock();
    const failed = lock.run('a', async () => {
      throw new Error('store down');
    });
    const next = lock.run('a', async () => 'next ran');
    await expect(failed).rejects.toThrow('store down');
    await expect(next).resolves.toBe('next ran');
  });
});
