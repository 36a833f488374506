import { describe, expect, it } from 'vitest';
import { answerReply, decisionReply, formReply, jobStopReply, withdrawReply } from './runtime-replies';

describe('runtime replies', () => {
  it('says nothing for what the runtime recorded', () => {
    expect(decisionReply({ accepted: true, status: 'allowed' })).toBeUndefined();
    expect(answerReply({ accepted: true, status: 'answered' })).toBeUndefined();
    expect(withdrawReply({ commandId: 'c', state: 'cancelled' })).toBeUndefined();
    expect(jobStopReply({ commandId: 'c', jobId: 'j', state: 'applied', jobState: 'running' })).toBeUndefined();
    expect(formReply({ accepted: true, status: 'answered' })).toBeUndefined();
  });

  it('names the state that made a decision or an answer too late', () => {
    expect(decisionReply({ accepted: false, status: 'expired' })).toBe(
      'Not recorded: this request is already expired.',
    );
    expect(answerReply({ accepted: false, status: 'answered' })).toBe(
      'Not recorded: this question is already answered.',
    );
    expect(answerReply({ accepted: false, status: 'pending', error: 'Expected a number.' })).toBe('Expected a number.');
  });

  it('tells a steer already applied from one in another state', () => {
    expect(withdrawReply({ commandId: 'c', state: 'applied' })).toBe('Too late: it was already added to the turn.');
    expect(withdrawReply({ commandId: 'c', state: 'stale' })).toBe('Not withdrawn: it is stale.');
  });

  it('says why a job was not stopped', () => {
    expect(jobStopReply({ commandId: 'c', jobId: 'j', state: 'rejected', jobState: 'completed' })).toBe(
      'Not stopped: the job is completed.',
    );
  });

  it('hands a refused form its problems by path', () => {
    const problems = [{ path: 'speed', message: 'Too large.' }];
    expect(formReply({ accepted: false, status: 'pending', error: 'Check the form.', problems })).toEqual({
      error: 'Check the form.',
      problems,
    });
    expect(formReply({ accepted: false, status: 'answered' })).toEqual({
      error: 'Not recorded: this question is already answered.',
      problems: [],
    });
  });
});
