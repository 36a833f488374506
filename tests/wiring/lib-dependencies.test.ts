import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { libDependencies, libDependencyExceptions, libFoldersToCome } from '../../eslint.config.js';

const root = resolve(import.meta.dirname, '../..');
const libFolders = readdirSync(resolve(root, 'lib'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const rows = Object.keys(libDependencies);

describe('libDependencies (eslint.config.js)', () => {
  it('has a row for every folder of lib/, and no row for a folder that is neither there nor to come', () => {
    expect(libFolders.filter((folder) => !rows.includes(folder))).toEqual([]);
    expect(rows.filter((row) => !libFolders.includes(row) && !libFoldersToCome.includes(row))).toEqual([]);
    expect(libFoldersToCome.filter((folder) => libFolders.includes(folder))).toEqual([]);
  });

  it('lists its rows from the lowest floor up: a folder imports only rows above its own, so no arrow runs back up', () => {
    const upward = rows.flatMap((folder, index) =>
      libDependencies[folder]
        .filter((imported) => !rows.slice(0, index).includes(imported))
        .map((imported) => `${folder} → ${imported}`),
    );
    expect(upward).toEqual([]);
  });

  it('allows each exception to one file that exists and still imports the folder, with a reason', () => {
    for (const exception of libDependencyExceptions) {
      const path = resolve(root, exception.file);
      expect(existsSync(path), exception.file).toBe(true);
      const folder = exception.file.split('/')[1];
      expect(libDependencies[folder], exception.file).not.toContain(exception.imports);
      expect(rows).toContain(exception.imports);
      const imported = new RegExp(`from '(\\.\\./|@/lib/)${exception.imports}/`);
      expect(readFileSync(path, 'utf8'), `${exception.file} → ${exception.imports}`).toMatch(imported);
      expect(exception.reason.length).toBeGreaterThan(20);
    }
  });

  it('is what each folder README.md says the folder may import', () => {
    for (const folder of libFolders) {
      const readme = resolve(root, 'lib', folder, 'README.md');
      expect(existsSync(readme), `lib/${folder}/README.md`).toBe(true);
      const row = libDependencies[folder];
      const line = `May import: ${row.length > 0 ? row.join(', ') : 'nothing else in lib/'} (`;
      expect(readFileSync(readme, 'utf8'), `lib/${folder}/README.md`).toContain(line);
    }
  });

  it('is what each folder README.md names as its exceptions, and no README names one that is gone', () => {
    for (const folder of libFolders) {
      const readme = readFileSync(resolve(root, 'lib', folder, 'README.md'), 'utf8');
      const named = readme.split('\n').filter((text) => text.startsWith('Still running up'));
      const exceptions = libDependencyExceptions
        .filter((exception) => exception.file.split('/')[1] === folder)
        .map((exception) => `\`${exception.file.split('/').pop()}\` imports ${exception.imports}`);
      const expected =
        exceptions.length > 0 ? [`Still running up, as named exceptions there: ${exceptions.join('; ')}.`] : [];
      expect(named, `lib/${folder}/README.md`).toEqual(expected);
    }
  });
});
