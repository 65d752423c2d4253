// A small bundled database of front-end libraries with known CVEs (sources: NVD, GitHub advisories).
// `range` is a semver range of affected versions.
export interface LibraryVulnerability {
  range: string;
  ids: string[];
  summary: string;
  cvss: string;
}

export interface LibraryEntry {
  name: string;
  /** Patterns that capture the version from a script URL. */
  url: RegExp[];
  /** Patterns that capture the version from the script's own banner or code. */
  content: RegExp[];
  vulnerabilities: LibraryVulnerability[];
}

const xss = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N';
const dos = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H';
const v = String.raw`(\d+\.\d+\.\d+)`;

export const libraries: LibraryEntry[] = [
  {
    name: 'jQuery',
    url: [
      new RegExp(String.raw`jquery[-.@]${v}(?:\.min|\.slim)*\.js`, 'i'),
      new RegExp(String.raw`/jquery/${v}/`, 'i'),
    ],
    content: [
      new RegExp(String.raw`jQuery (?:JavaScript Library )?v${v}`),
      new RegExp(String.raw`jquery:\s*["']${v}["']`),
    ],
    vulnerabilities: [
      { range: '<1.9.0', ids: ['CVE-2012-6708'], summary: 'XSS through selector strings', cvss: xss },
      {
        range: '>=1.4.0 <3.0.0',
        ids: ['CVE-2015-9251'],
        summary: 'XSS via cross-domain ajax text/javascript responses',
        cvss: xss,
      },
      {
        range: '<3.4.0',
        ids: ['CVE-2019-11358'],
        summary: 'prototype pollution in jQuery.extend',
        cvss: xss,
      },
      {
        range: '>=1.0.3 <3.5.0',
        ids: ['CVE-2020-11022', 'CVE-2020-11023'],
        summary: 'XSS when passing HTML to DOM manipulation methods',
        cvss: xss,
      },
    ],
  },
  {
    name: 'AngularJS',
    url: [new RegExp(String.raw`angular(?:js)?[-.@/]${v}`, 'i')],
    content: [new RegExp(String.raw`AngularJS v${v}`)],
    vulnerabilities: [
      {
        range: '<1.7.9',
        ids: ['CVE-2019-10768'],
        summary: 'prototype pollution in merge',
        cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N',
      },
      { range: '<1.8.0', ids: ['CVE-2020-7676'], summary: 'XSS through <option> elements', cvss: xss },
      {
        range: '>=1.2.21 <2.0.0',
        ids: ['CVE-2022-25844', 'CVE-2023-26116', 'CVE-2023-26117', 'CVE-2023-26118'],
        summary: 'ReDoS; AngularJS is end-of-life with no fix',
        cvss: dos,
      },
    ],
  },
  {
    name: 'Bootstrap',
    url: [new RegExp(String.raw`bootstrap[-.@/]${v}`, 'i')],
    content: [new RegExp(String.raw`Bootstrap v${v}`)],
    vulnerabilities: [
      {
        range: '<3.4.0 || >=4.0.0 <4.1.2',
        ids: ['CVE-2018-14040', 'CVE-2018-14041', 'CVE-2018-14042'],
        summary: 'XSS in collapse, scrollspy and tooltip data attributes',
        cvss: xss,
      },
      {
        range: '<3.4.1 || >=4.0.0 <4.3.1',
        ids: ['CVE-2019-8331'],
        summary: 'XSS in tooltip/popover data-template',
        cvss: xss,
      },
    ],
  },
  {
    name: 'Lodash',
    url: [new RegExp(String.raw`lodash[-.@/]${v}`, 'i')],
    content: [
      new RegExp(String.raw`[Ll]odash[\s\S]{0,3000}?VERSION\s*=\s*["']${v}["']`),
      new RegExp(String.raw`@license lodash ${v}`, 'i'),
    ],
    vulnerabilities: [
      {
        range: '<4.17.11',
        ids: ['CVE-2018-16487'],
        summary: 'prototype pollution in merge functions',
        cvss: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L',
      },
      {
        range: '<4.17.12',
        ids: ['CVE-2019-10744'],
        summary: 'prototype pollution in defaultsDeep',
        cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:H',
      },
      {
        range: '<4.17.21',
        ids: ['CVE-2021-23337'],
        summary: 'command injection through template',
        cvss: 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H',
      },
    ],
  },
  {
    name: 'Moment.js',
    url: [new RegExp(String.raw`moment(?:\.js)?[-.@/]${v}`, 'i')],
    content: [
      new RegExp(String.raw`moment\.js\s*\n//! version : ${v}`),
      new RegExp(String.raw`moment[\s\S]{0,200}?version\s*[:=]\s*["']?${v}`, 'i'),
    ],
    vulnerabilities: [
      { range: '<2.19.3', ids: ['CVE-2017-18214'], summary: 'ReDoS in date parsing', cvss: dos },
      {
        range: '<2.29.2',
        ids: ['CVE-2022-24785'],
        summary: 'path traversal in locale loading',
        cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N',
      },
      { range: '>=2.18.0 <2.29.4', ids: ['CVE-2022-31129'], summary: 'ReDoS in RFC 2822 parsing', cvss: dos },
    ],
  },
];
