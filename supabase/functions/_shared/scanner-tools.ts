/**
 * The scanner tool mapping of docs/product.md §7.5, shared by the edge functions and the agents: web application and
 * API tools use the web-application / API scanners, infrastructure and SIEM the network mapper; cloud
 * security and threat intelligence are connectors to the customer's own provider accounts.
 */
export const toolTypes = [
  'webapp',
  'infrastructure',
  'api',
  'cloud_security',
  'threat_intel',
  'siem',
] as const;
export type ToolType = (typeof toolTypes)[number];
export type ScannerName = 'webapp' | 'infrastructure' | 'api';

export const toolScanner: Record<ToolType, ScannerName | null> = {
  webapp: 'webapp',
  api: 'api',
  infrastructure: 'infrastructure',
  siem: 'infrastructure',
  cloud_security: null,
  threat_intel: null,
};

/** Why a connector tool cannot run: it needs the customer's own credentials, which are not connected. */
export const connectorNeeds: Partial<Record<ToolType, string>> = {
  cloud_security:
    'Cloud security checks run against your own cloud and edge-network account. Connect its API credentials first; no scan was run and no results were produced.',
  threat_intel:
    'Threat intelligence uses a file-reputation service under your own API key. Connect that key first; no lookup was run and no results were produced.',
};

/** Which target kinds each scanner accepts. */
export const scannerTargetKinds: Record<ScannerName, readonly ('url' | 'host' | 'api')[]> = {
  webapp: ['url'],
  api: ['api', 'url'],
  infrastructure: ['host', 'url'],
};
