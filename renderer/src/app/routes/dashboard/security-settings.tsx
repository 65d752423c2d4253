import { SecuritySettingsPanel } from '../../../features/security-settings/components/security-settings-page.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';

export function Component() {
  useDocumentTitle('Security Settings');
  return <SecuritySettingsPanel />;
}
