export const DASHBOARD_NAV = [
  { to: '/dashboard', label: 'Dashboard', end: true },
  { to: '/dashboard/security-automation', label: 'Security Automation', end: false },
  { to: '/dashboard/agents', label: 'Agents', end: false },
  { to: '/dashboard/alerts', label: 'Alerts', end: false },
  { to: '/dashboard/reports', label: 'Reports', end: false },
  { to: '/dashboard/settings', label: 'Settings', end: false },
] as const;
