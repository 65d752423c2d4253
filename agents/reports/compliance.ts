// The compliance section: every control of the four frameworks (controls.ts) with the open findings
// that are exceptions to it. Scanners attach their control references to each finding; a finding
// without any (older rows, other sources) is mapped by its CWE class, and failing that to vulnerability
// management, so no open finding is left out of the section.
import { complianceFrameworks, type ComplianceFramework } from '../../shared/findings.ts';
import { CONTROLS } from './controls.ts';
import { SEVERITIES, type ComplianceRef, type ReportFinding, type Severity } from './types.ts';

const BY_CLASS: Record<string, ComplianceRef[]> = {
  transport: [
    { framework: 'SOC 2', control: 'CC6.7' },
    { framework: 'ISO 27001', control: 'A.8.24' },
    { framework: 'HIPAA', control: '164.312(e)(1)' },
    { framework: 'PCI DSS', control: '4.2.1' },
  ],
  access: [
    { framework: 'SOC 2', control: 'CC6.1' },
    { framework: 'ISO 27001', control: 'A.8.3' },
    { framework: 'HIPAA', control: '164.312(a)(1)' },
    { framework: 'PCI DSS', control: '7.2.1' },
  ],
  code: [
    { framework: 'SOC 2', control: 'CC8.1' },
    { framework: 'ISO 27001', control: 'A.8.28' },
    { framework: 'HIPAA', control: '164.308(a)(1)(ii)(B)' },
    { framework: 'PCI DSS', control: '6.2.4' },
  ],
  vulnerability: [
    { framework: 'SOC 2', control: 'CC7.1' },
    { framework: 'ISO 27001', control: 'A.8.8' },
    { framework: 'HIPAA', control: '164.308(a)(1)(ii)(B)' },
    { framework: 'PCI DSS', control: '6.3.3' },
  ],
};

const CWE_CLASS: Record<string, keyof typeof BY_CLASS> = {
  'CWE-319': 'transport',
  'CWE-326': 'transport',
  'CWE-327': 'transport',
  'CWE-295': 'transport',
  'CWE-523': 'transport',
  'CWE-284': 'access',
  'CWE-285': 'access',
  'CWE-287': 'access',
  'CWE-306': 'access',
  'CWE-862': 'access',
  'CWE-863': 'access',
  'CWE-639': 'access',
  'CWE-79': 'code',
  'CWE-89': 'code',
  'CWE-943': 'code',
  'CWE-78': 'code',
  'CWE-22': 'code',
  'CWE-352': 'code',
  'CWE-918': 'code',
  'CWE-611': 'code',
  'CWE-601': 'code',
  'CWE-94': 'code',
};

/** The control references of one finding: its own, else by CWE class, else vulnerability management. */
export function controlsOf(finding: Pick<ReportFinding, 'compliance' | 'cwe'>): ComplianceRef[] {
  const own = finding.compliance.filter((ref) =>
    (complianceFrameworks as readonly string[]).includes(ref.framework),
  );
  if (own.length) {
    return own;
  }
  return BY_CLASS[(finding.cwe && CWE_CLASS[finding.cwe]) || 'vulnerability'] ?? [];
}

export interface ControlStatus {
  control: string;
  title: string;
  findings: number;
  worst: Severity | null;
}

export interface FrameworkSection {
  framework: ComplianceFramework;
  controls: ControlStatus[];
  exceptions: number;
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

export function complianceSections(
  findings: Iterable<Pick<ReportFinding, 'compliance' | 'cwe' | 'severity'>>,
): FrameworkSection[] {
  const hits = new Map<string, { findings: number; worst: Severity }>();
  for (const finding of findings) {
    // One finding counts once per control even when it lists the control twice.
    const seen = new Set<string>();
    for (const ref of controlsOf(finding)) {
      const key = `${ref.framework}|${ref.control}`;
      if (seen.has(key)) {
        continue;
      }
      seen.add(key);
      const hit = hits.get(key);
      if (!hit) {
        hits.set(key, { findings: 1, worst: finding.severity });
      } else {
        hit.findings++;
        hit.worst = rank(finding.severity) < rank(hit.worst) ? finding.severity : hit.worst;
      }
    }
  }
  return complianceFrameworks.map((framework) => {
    const catalogue = { ...CONTROLS[framework] };
    // A control a scanner cites that the catalogue lacks is still reported, never dropped.
    for (const key of hits.keys()) {
      const [fw, control] = key.split('|') as [string, string];
      if (fw === framework && !(control in catalogue)) {
        catalogue[control] = 'Control cited by a finding';
      }
    }
    const controls = Object.entries(catalogue).map(([control, title]) => {
      const hit = hits.get(`${framework}|${control}`);
      return { control, title, findings: hit?.findings ?? 0, worst: hit?.worst ?? null };
    });
    return { framework, controls, exceptions: controls.filter((c) => c.findings > 0).length };
  });
}
