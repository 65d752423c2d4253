// Pathless layout route: the aal2 guard around the dashboard.
export { AssuranceGuard as Component } from '../../features/biometric/components/assurance-guard.tsx';
