import { Bug, Cloud, Code, Eye, type LucideIcon, Radar, Search, Siren } from 'lucide-react';

const ICONS: Record<string, LucideIcon> = {
  cybersecurity_analyst: Eye,
  penetration_tester: Bug,
  incident_response: Siren,
  forensics_investigator: Search,
  threat_intelligence: Radar,
  application_security: Code,
  cloud_security: Cloud,
};

export function roleIcon(roleType: string): LucideIcon {
  return ICONS[roleType] ?? Eye;
}
