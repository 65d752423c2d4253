// A rule is the fixed part of a finding (title, CVSS, CWE, OWASP, remediation, compliance); a scanner
// only adds where it found it and what it saw.
import type { ComplianceRef, Finding } from '../../../shared/findings.ts';
import { cvssBaseScore, severityFromScore } from './cvss.ts';
import { findingFieldCaps, inertText } from './inert-text.ts';

/** Control families a finding maps to; each names the controls of the four frameworks we report on. */
export const controlFamilies = {
  transport: [
    { framework: 'SOC 2', control: 'CC6.7' },
    { framework: 'ISO 27001', control: 'A.8.24' },
    { framework: 'HIPAA', control: '164.312(e)(1)' },
    { framework: 'PCI DSS', control: '4.2.1' },
  ],
  hardening: [
    { framework: 'SOC 2', control: 'CC7.1' },
    { framework: 'ISO 27001', control: 'A.8.9' },
    { framework: 'HIPAA', control: '164.308(a)(1)(ii)(B)' },
    { framework: 'PCI DSS', control: '2.2.1' },
  ],
  access: [
    { framework: 'SOC 2', control: 'CC6.1' },
    { framework: 'ISO 27001', control: 'A.8.3' },
    { framework: 'HIPAA', control: '164.312(a)(1)' },
    { framework: 'PCI DSS', control: '7.2.1' },
  ],
  network: [
    { framework: 'SOC 2', control: 'CC6.6' },
    { framework: 'ISO 27001', control: 'A.8.20' },
    { framework: 'HIPAA', control: '164.312(e)(1)' },
    { framework: 'PCI DSS', control: '1.3.1' },
  ],
  code: [
    { framework: 'SOC 2', control: 'CC8.1' },
    { framework: 'ISO 27001', control: 'A.8.28' },
    { framework: 'HIPAA', control: '164.308(a)(1)(ii)(B)' },
    { framework: 'PCI DSS', control: '6.2.4' },
  ],
  leakage: [
    { framework: 'SOC 2', control: 'CC6.1' },
    { framework: 'ISO 27001', control: 'A.8.12' },
    { framework: 'HIPAA', control: '164.312(c)(1)' },
    { framework: 'PCI DSS', control: '6.2.4' },
  ],
  secrets: [
    { framework: 'SOC 2', control: 'CC6.1' },
    { framework: 'ISO 27001', control: 'A.5.17' },
    { framework: 'HIPAA', control: '164.312(d)' },
    { framework: 'PCI DSS', control: '8.3.2' },
  ],
  patching: [
    { framework: 'SOC 2', control: 'CC7.1' },
    { framework: 'ISO 27001', control: 'A.8.8' },
    { framework: 'HIPAA', control: '164.308(a)(1)(ii)(A)' },
    { framework: 'PCI DSS', control: '6.3.3' },
  ],
  availability: [
    { framework: 'SOC 2', control: 'A1.1' },
    { framework: 'ISO 27001', control: 'A.8.6' },
    { framework: 'HIPAA', control: '164.308(a)(7)(i)' },
    { framework: 'PCI DSS', control: '6.4.1' },
  ],
} satisfies Record<string, ComplianceRef[]>;

export type ControlFamily = keyof typeof controlFamilies;

export interface Rule {
  title: string;
  cvss: string;
  cwe: `CWE-${number}`;
  owasp: string;
  remediation: string;
  family: ControlFamily;
}

export interface FindingDetail {
  location: string;
  evidence: string;
  /** Overrides the rule's vector when one instance is worse than usual (e.g. a library with a critical CVE). */
  cvss?: string;
  /** Replaces the rule's advice when one instance knows better (e.g. the library version that fixes it). */
  remediation?: string;
}

/** Builds the finding factory for one table of rules; unknown ids fail to compile. */
export function ruleBook<Id extends string>(rules: Record<Id, Rule>) {
  return (id: Id, detail: FindingDetail): Finding => {
    const rule = rules[id];
    const vector = detail.cvss ?? rule.cvss;
    const score = cvssBaseScore(vector);
    // Guard: location, evidence and an instance's remediation carry what the target sent; made inert here,
    // where every finding is made, they reach terminals, reports and pages only as text.
    return {
      rule_id: id,
      title: inertText(rule.title, findingFieldCaps.title),
      severity: severityFromScore(score),
      cwe: rule.cwe,
      location: inertText(detail.location, findingFieldCaps.location),
      evidence: inertText(detail.evidence, findingFieldCaps.evidence),
      cvss: { vector, score },
      owasp: rule.owasp,
      remediation: inertText(detail.remediation ?? rule.remediation, findingFieldCaps.remediation),
      compliance: controlFamilies[rule.family],
    };
  };
}

/** `finding` with `more` added to its evidence, made inert like the rest (nmap's version names, say). */
export function withMoreEvidence(finding: Finding, more: string): Finding {
  return { ...finding, evidence: inertText(`${finding.evidence} ${more}`, findingFieldCaps.evidence) };
}
