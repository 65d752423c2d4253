import { describe, expect, it } from 'vitest';
import { complianceSections, controlsOf } from './compliance.ts';
import { complianceFrameworks } from '../../shared/findings.ts';
import { CONTROLS } from './controls.ts';
import { makeFinding } from './fixtures.ts';

describe('compliance mapping', () => {
  it("keeps a finding's own control references and drops unknown frameworks", () => {
    const refs = controlsOf(
      makeFinding(1, {
        compliance: [
          { framework: 'SOC 2', control: 'CC6.7' },
          { framework: 'NIST', control: 'AC-1' },
        ],
      }),
    );
    expect(refs).toEqual([{ framework: 'SOC 2', control: 'CC6.7' }]);
  });

  it('maps a finding without references by its CWE, and otherwise to vulnerability management', () => {
    expect(controlsOf(makeFinding(1, { compliance: [], cwe: 'CWE-319' }))).toContainEqual({
      framework: 'PCI DSS',
      control: '4.2.1',
    });
    expect(controlsOf(makeFinding(1, { compliance: [], cwe: 'CWE-89' }))).toContainEqual({
      framework: 'ISO 27001',
      control: 'A.8.28',
    });
    expect(controlsOf(makeFinding(1, { compliance: [], cwe: null }))).toEqual([
      { framework: 'SOC 2', control: 'CC7.1' },
      { framework: 'ISO 27001', control: 'A.8.8' },
      { framework: 'HIPAA', control: '164.308(a)(1)(ii)(B)' },
      { framework: 'PCI DSS', control: '6.3.3' },
    ]);
  });

  it('lists every catalogue control of all four frameworks, with exceptions, counts and the worst severity', () => {
    const sections = complianceSections([
      makeFinding(1, { severity: 'medium', compliance: [{ framework: 'HIPAA', control: '164.312(e)(1)' }] }),
      makeFinding(2, {
        severity: 'critical',
        compliance: [
          { framework: 'HIPAA', control: '164.312(e)(1)' },
          { framework: 'HIPAA', control: '164.312(e)(1)' },
        ],
      }),
    ]);
    expect(sections.map((s) => s.framework)).toEqual([...complianceFrameworks]);
    const hipaa = sections.find((s) => s.framework === 'HIPAA')!;
    expect(hipaa.controls).toHaveLength(Object.keys(CONTROLS.HIPAA).length);
    expect(hipaa.controls.find((c) => c.control === '164.312(e)(1)')).toMatchObject({
      findings: 2,
      worst: 'critical',
      title: 'Transmission security',
    });
    expect(hipaa.exceptions).toBe(1);
    expect(sections.find((s) => s.framework === 'SOC 2')!.exceptions).toBe(0);
  });

  it('still reports a control a scanner cites that the catalogue lacks', () => {
    const [soc] = complianceSections([
      makeFinding(1, { compliance: [{ framework: 'SOC 2', control: 'CC9.9' }] }),
    ]);
    expect(soc!.controls.find((c) => c.control === 'CC9.9')).toMatchObject({ findings: 1 });
  });

  it('covers the controls the scanners use', async () => {
    const { controlFamilies } = await import('../scanners/core/rule.ts');
    for (const refs of Object.values(controlFamilies)) {
      for (const ref of refs) {
        expect(CONTROLS[ref.framework], `${ref.framework} ${ref.control}`).toHaveProperty([ref.control]);
      }
    }
  });
});
