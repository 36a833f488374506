import { describe, expect, it } from 'vitest';
import { parseFetchedManifest, userTargetAddress } from './user-target-address';

const manifest = {
  id: 'my-lamp',
  title: 'My lamp',
  description: 'A lamp.',
  entry: 'index.html',
  params: { light: { brightness: { type: 'number', unit: '%', min: 0, max: 100, value: 50 } } },
};

describe('userTargetAddress', () => {
  it('finds manifest.json beside a page or inside a folder', async () => {
    expect(userTargetAddress('http://127.0.0.1:8123/index.html')).toEqual({
      ok: true,
      manifestUrl: 'http://127.0.0.1:8123/manifest.json',
      originPattern: 'http://127.0.0.1/*',
    });
    expect(userTargetAddress('  http://localhost:5173/lamp  ')).toMatchObject({
      ok: true,
      manifestUrl: 'http://localhost:5173/lamp/manifest.json',
    });
    expect(userTargetAddress('https://example.org/targets/lamp/?debug=1#top')).toMatchObject({
      ok: true,
      manifestUrl: 'https://example.org/targets/lamp/manifest.json',
      originPattern: 'https://example.org/*',
    });
  });

  it('adds http:// when no scheme is typed', async () => {
    expect(userTargetAddress('localhost:5173')).toMatchObject({
      ok: true,
      manifestUrl: 'http://localhost:5173/manifest.json',
      originPattern: 'http://localhost/*',
    });
  });

  it('refuses empty input, non-addresses and other schemes', async () => {
    expect(userTargetAddress(' ')).toMatchObject({ ok: false });
    expect(userTargetAddress('http://exa mple.org')).toMatchObject({
      ok: false,
      error: expect.stringContaining('not a web address'),
    });
    expect(userTargetAddress('file:///home/me/lamp/')).toMatchObject({
      ok: false,
      error: expect.stringContaining('not file'),
    });
  });
});

describe('parseFetchedManifest', () => {
  const url = 'http://127.0.0.1:8123/lamp/manifest.json';

  it('accepts a valid manifest and resolves the entry beside it', async () => {
    const result = await parseFetchedManifest(url, JSON.stringify(manifest));
    expect(result).toMatchObject({ ok: true, entryUrl: 'http://127.0.0.1:8123/lamp/index.html' });
    expect(result.ok && result.manifest.id).toBe('my-lamp');
  });

  it('names the file and the field of a mistake', async () => {
    const broken = { ...manifest, params: { light: { brightness: { type: 'number', min: 0, max: 100, value: 500 } } } };
    const result = await parseFetchedManifest(url, JSON.stringify(broken));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe(`${url}: params.light.brightness.value: default is outside [min, max]`);
  });

  it('reports text that is not JSON, naming the file', async () => {
    const result = await parseFetchedManifest(url, '<!doctype html><p>Not found</p>');
    expect(!result.ok && result.error).toMatch(/^http:\/\/127\.0\.0\.1:8123\/lamp\/manifest\.json: not valid JSON/);
  });

  it('keeps the entry on the manifest origin', async () => {
    const result = await parseFetchedManifest(url, JSON.stringify({ ...manifest, entry: '//evil.example/x.html' }));
    expect(result.ok).toBe(false);
  });
});
