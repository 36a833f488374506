import { describe, expect, it } from 'vitest';
import { DOWNLOAD_NAME_LIMIT, downloadFileName, uriFileName } from './download-file-name';

describe('uriFileName', () => {
  it('takes the last segment of a resource URI, decoded, without scheme, query or fragment', () => {
    expect(uriFileName('file:///exports/q1%20report.csv')).toBe('q1 report.csv');
    expect(uriFileName('ui://counter/data.json?page=2#top')).toBe('data.json');
    expect(uriFileName('note://other-server')).toBe('other-server');
    expect(uriFileName('file:///')).toBe('');
    expect(uriFileName('report://a/%E0%A4%A')).toBe('%E0%A4%A');
  });
});

describe('downloadFileName', () => {
  it('keeps a plain name and adds the extension its type implies when it has none', () => {
    expect(downloadFileName('report.csv', 'text/csv')).toBe('report.csv');
    expect(downloadFileName('Q4 Report', 'application/pdf')).toBe('Q4 Report.pdf');
    expect(downloadFileName('notes', 'text/plain; charset=utf-8')).toBe('notes.txt');
    expect(downloadFileName('blob', 'application/x-unknown')).toBe('blob');
  });

  it('saves into no other folder: separators and characters file systems refuse become dashes', () => {
    expect(downloadFileName('../../etc/passwd', 'text/plain')).toBe('-..-etc-passwd.txt');
    expect(downloadFileName('C:\\Windows\\win.ini', 'text/plain')).toBe('C-Windows-win.ini');
    expect(downloadFileName('a<b>c|d?e*f"g\u0000h\nk.txt', 'text/plain')).toBe('a-b-c-d-e-f-g-h-k.txt');
  });

  it('never makes a hidden file, a trailing dot or a reserved device name, and never an empty name', () => {
    expect(downloadFileName('.bashrc', 'text/plain')).toBe('bashrc.txt');
    expect(downloadFileName('...  .env', 'text/plain')).toBe('env.txt');
    expect(downloadFileName('report. ', 'text/csv')).toBe('report.csv');
    expect(downloadFileName('CON.txt', 'text/plain')).toBe('_CON.txt');
    expect(downloadFileName('lpt1', 'text/plain')).toBe('_lpt1.txt');
    expect(downloadFileName('', 'application/octet-stream')).toBe('download');
    expect(downloadFileName(' . ', 'image/png')).toBe('download.png');
  });

  it('cuts a long name to the limit, keeping its extension and whole characters', () => {
    const long = downloadFileName(`${'é'.repeat(300)}.json`, 'application/json');
    expect(Array.from(long)).toHaveLength(DOWNLOAD_NAME_LIMIT);
    expect(long.endsWith('é.json')).toBe(true);
    const emoji = downloadFileName('😀'.repeat(200), 'text/plain');
    expect(Array.from(emoji)).toHaveLength(DOWNLOAD_NAME_LIMIT);
    expect(emoji.endsWith('😀.txt')).toBe(true);
  });
});
