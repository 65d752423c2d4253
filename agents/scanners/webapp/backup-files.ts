// Backup, editor and dump files: copies left next to the site's real files (`search.php.bak`,
// `search.php~`, `.search.php.swp`, `Copy of search.php`…), dumps and archives at common names
// (`dump.sql`, `backup.tar.gz`…), archives named after the site or a directory (`acme.zip`, `/app.tar.gz`).
// A copy counts only when it shows what the live page does not: server-side source, an editor's swap
// file, an archive, a dump, or a different version of a static page.
import { isIP } from 'node:net';

import { header } from '../core/http-client.ts';
import type { Page } from './crawl.ts';
import type { FileProbe } from './file-probe.ts';
import {
  archiveKind,
  describeFile,
  looksEnvFile,
  looksHtml,
  looksSourceCode,
  looksSqlDump,
  looksVimSwap,
} from './file-signatures.ts';

/** Archive suffixes, wapiti's odd `.7zip` included: a person who types it leaves such files too. */
const archiveSuffixes = ['.zip', '.tar.gz', '.tgz', '.tar', '.tar.bz2', '.tbz2', '.rar', '.7z', '.7zip'];
const copySuffixes = ['~', '.bak', '.old', '.orig', '.save', '.backup', '.bck', '.tmp', '.1', '.~1~'];
const stemSuffixes = ['.bak', '.old', '.save', '.backup', '.bck'];
const dumpNames = ['dump.sql', 'backup.sql', 'db.sql', 'database.sql', 'data.sql', 'mysql.sql', 'site.sql'];
const commonArchives = ['backups', 'site', 'www', 'web', 'html', 'htdocs', 'public_html'];

const isArchiveName = (name: string) => archiveSuffixes.some((suffix) => name.endsWith(suffix));

/** Signature of a file named like a dump or an archive. */
export function dumpOrArchive(name: string): (body: string) => boolean {
  if (/\.sql$/i.test(name)) {
    return looksSqlDump;
  }
  if (/\.(sql\.)?(gz|tgz|zip|tar|bz2|tbz2|rar|7z|7zip)$/i.test(name)) {
    return (body) => archiveKind(body) !== null;
  }
  return (body) => archiveKind(body) !== null || looksSqlDump(body) || looksSourceCode(body);
}

/** Names of copies an editor, a person or a tool leaves next to `name`: the union of nmap's
 * http-backup-finder and wapiti's backup module lists, and vim's, emacs's and patch's leftovers. */
export function copyNames(name: string): string[] {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  const copies = [
    ...[...copySuffixes, ...archiveSuffixes].map((suffix) => `${name}${suffix}`),
    `.${name}.swp`,
    `.${name}.swo`,
    `#${name}#`,
  ];
  if (ext) {
    copies.push(
      ...[...stemSuffixes, ...archiveSuffixes].map((suffix) => `${stem}${suffix}`),
      `${stem} copy${ext}`,
      `Copy of ${name}`,
      `Copy (2) of ${name}`,
    );
  }
  return [...new Set(copies)];
}

/**
 * A copy of a page shows its source, or is a swap file, archive or dump, or is a different version of a
 * static page. A copy equal to the live page discloses nothing (and is what frameworks that ignore an
 * unknown suffix serve); dynamic pages differ on every request, so for them only the stronger signatures
 * count. Static means served as a file: with Last-Modified, the same bytes on every request.
 */
function copySignature(copy: string, live: Page | null): (body: string) => boolean {
  if (/\.sw[po]$/.test(copy)) {
    return looksVimSwap;
  }
  if (isArchiveName(copy)) {
    return (body) => archiveKind(body) !== null;
  }
  const staticPage =
    live !== null && header(live.response, 'last-modified') !== undefined && looksHtml(live.response.body);
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
  return (body) =>
    looksSourceCode(body) ||
    looksSqlDump(body) ||
    looksEnvFile(body) ||
    archiveKind(body) !== null ||
    (staticPage &&
      looksHtml(body) &&
      squash(Buffer.from(body, 'latin1').toString('utf8')) !== squash(live.response.body));
}

/** Names the site could be archived under: its host name and labels, and the start page's title word. */
export function siteNames(start: URL, pages: Page[]): string[] {
  const names = new Set<string>();
  const host = start.hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host) && host !== 'localhost') {
    const labels = host.replace(/^www\./, '').split('.');
    names.add(host);
    names.add(labels.join('.'));
    labels.slice(0, -1).forEach((label) => names.add(label));
  }
  const title = /<title[^>]*>([^<]{1,80})/i.exec(pages[0]?.response.body ?? '')?.[1] ?? '';
  const word = /[A-Za-z][A-Za-z0-9-]{2,20}/.exec(title)?.[0];
  if (word) {
    names.add(word.toLowerCase());
  }
  return [...names].filter((n) => n.length >= 3).slice(0, 5);
}

export interface BackupInputs {
  start: URL;
  pages: Page[];
  /** Files the scan knows of besides pages: form actions, endpoints, files named in listings. */
  files: URL[];
  directories: URL[];
}

export function backupProbes({ start, pages, files, directories }: BackupInputs, maxFiles = 16): FileProbe[] {
  const probes: FileProbe[] = [];
  const add = (url: URL, signature: (body: string) => boolean, of?: URL) =>
    probes.push({
      url,
      rule: 'web.exposed.backup',
      signature,
      ...(of ? { describe: (body: string) => `copy of ${of.pathname}: ${describeFile(body)}` } : {}),
    });
  const live = new Map(pages.map((page) => [page.url.origin + page.url.pathname, page]));
  const known = [...pages.filter((page) => page.response.status < 400).map((page) => page.url), ...files]
    .filter((url) => url.origin === start.origin && /\/[^/]+$/.test(url.pathname))
    .map((url) => new URL(url.pathname, url.origin));
  for (const file of [...new Map(known.map((url) => [url.href, url])).values()].slice(0, maxFiles)) {
    const name = decodeURIComponent(file.pathname.split('/').pop()!);
    for (const copy of copyNames(name)) {
      add(new URL(encodeURIComponent(copy), file), copySignature(copy, live.get(file.href) ?? null), file);
    }
  }
  const names = siteNames(start, pages);
  const isArchive = (body: string) => archiveKind(body) !== null;
  for (const dir of directories) {
    // The root gets every common name; deeper directories the likeliest (requests add up per directory).
    const root = dir.pathname === '/';
    for (const dump of root ? dumpNames : dumpNames.slice(0, 4)) {
      add(new URL(dump, dir), looksSqlDump);
      if (root) {
        add(new URL(`${dump}.gz`, dir), isArchive);
      }
    }
    for (const suffix of archiveSuffixes) {
      add(new URL(`backup${suffix}`, dir), isArchive);
    }
    for (const base of root ? [...commonArchives, ...names] : []) {
      for (const suffix of archiveSuffixes.slice(0, 3)) {
        add(new URL(`${base}${suffix}`, dir), isArchive);
      }
    }
    const dirName = dir.pathname.split('/').at(-2);
    if (dirName) {
      for (const suffix of archiveSuffixes.slice(0, 4)) {
        add(new URL(`../${dirName}${suffix}`, dir), isArchive);
      }
    }
  }
  return probes;
}
