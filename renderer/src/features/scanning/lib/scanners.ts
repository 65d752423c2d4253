// The scanner catalogue of the Security Automation page (docs/product.md §3: name, description, whether a URL
// is required) and which kinds of target each scanner accepts (the same mapping as the edge function's).
export type ScannerType = 'webapp' | 'infrastructure' | 'api';
export type TargetKind = 'url' | 'host' | 'api';

export interface ScannerInfo {
  type: ScannerType;
  name: string;
  description: string;
  requiresUrl: boolean;
  targetKinds: readonly TargetKind[];
}

export const SCANNERS: readonly ScannerInfo[] = [
  {
    type: 'webapp',
    name: 'Web Application Scanner',
    description:
      'Crawls your site and checks it for exposed files, missing security headers, injection points and weak cookies.',
    requiresUrl: true,
    targetKinds: ['url'],
  },
  {
    type: 'infrastructure',
    name: 'Infrastructure Scanner',
    description:
      'Maps open ports and services, reads their banners and checks TLS configuration on your hosts.',
    requiresUrl: false,
    targetKinds: ['host', 'url'],
  },
  {
    type: 'api',
    name: 'API Security Scanner',
    description:
      'Tests your API endpoints (from an OpenAPI document when given) for authentication, CORS and data exposure issues.',
    requiresUrl: true,
    targetKinds: ['api', 'url'],
  },
];
