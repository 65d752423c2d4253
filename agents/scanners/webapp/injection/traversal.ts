// Path traversal: the parameter names a file, and climbing out of its folder reads a system file whose
// content cannot be mistaken (/etc/passwd's root entry, win.ini's sections). Read-only by nature. The
// file's signature must be absent from the original answer and present again with a second spelling of
// the path before anything is reported.
import type { Finding } from '../../../../shared/findings.ts';
import { webappFinding } from '../rules.ts';
import type { ParamProbe } from './param-probe.ts';

interface Spelling {
  path: string;
  /** The same climb written differently: the file must come back again. */
  confirm: string;
}

interface Target {
  file: string;
  signature: RegExp;
  spellings: Spelling[];
}

const up = (step: string, n: number) => step.repeat(n);

const targets: Target[] = [
  {
    file: '/etc/passwd',
    signature: /\broot:[^:\r\n]{0,40}:0:0:[^\r\n"<]{0,80}/,
    spellings: [
      { path: `${up('../', 10)}etc/passwd`, confirm: `${up('../', 14)}etc/./passwd` },
      // Survives a filter that deletes "../" once.
      { path: `${up('....//', 10)}etc/passwd`, confirm: `${up('....//', 14)}etc/./passwd` },
    ],
  },
  {
    file: 'C:\\Windows\\win.ini',
    signature: /\[(?:fonts|extensions|mci extensions)\][\s\S]{0,200}\[(?:fonts|extensions|files|mail)\]/i,
    spellings: [
      { path: `${up('..\\', 10)}windows\\win.ini`, confirm: `${up('..\\', 14)}windows\\.\\win.ini` },
    ],
  },
];

export async function pathTraversal(probe: ParamProbe): Promise<Finding | null> {
  const original = await probe.originalOnce();
  const tries = targets
    .filter((target) => original && !target.signature.test(original.body))
    .flatMap((target) => target.spellings.map((spelling) => ({ target, ...spelling })));
  const answers = await Promise.all(tries.map(({ path }) => probe.request(path)));
  for (const [i, { target, path, confirm }] of tries.entries()) {
    const answer = answers[i];
    const match = answer ? target.signature.exec(answer.body) : null;
    if (!match) {
      continue;
    }
    const again = await probe.request(confirm);
    if (again && target.signature.test(again.body)) {
      return webappFinding('web.path-traversal', {
        location: probe.location,
        evidence: `${probe.param}=${path} returned ${target.file} ("${match[0].slice(0, 60)}"), and so did ${probe.param}=${confirm}; the original value's answer does not contain it`,
      });
    }
  }
  return null;
}
