import { describe, expect, it } from 'vitest';
import { errorAdvice } from './error-advice';

describe('errorAdvice', () => {
  it.each([
    ['Incorrect API key provided: sk-***', 'The endpoint rejected the API key.'],
    ['Unauthorized', 'The endpoint rejected the API key.'],
    ['You exceeded your current quota (insufficient_quota)', 'The account has no quota left.'],
    ['Too Many Requests', 'The endpoint is rate limiting requests.'],
    ['The model `gpt-9` does not exist', 'The model or endpoint path was not found.'],
    ['Failed to fetch', 'The endpoint could not be reached.'],
    ['Internal Server Error (500)', 'The endpoint had a server error.'],
    ['The model stream ended without finishing.', 'The connection to the model broke off.'],
    ['The model sent nothing for 60 s; the attempt was stopped.', 'The model stopped sending.'],
    [
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens. Please reduce the length of the messages.",
      'The request was longer than this model’s context window.',
    ],
    ['prompt is too long: 9001 tokens > 8192 maximum', 'The request was longer than this model’s context window.'],
    [
      'The input token count (9001) exceeds the maximum number of tokens allowed (8192).',
      'The request was longer than this model’s context window.',
    ],
    ['something odd', 'The model request failed.'],
  ])('%s', (message, title) => {
    expect(errorAdvice(message).title).toBe(title);
  });
});
