import { SelectRolesPage } from '../../../features/agents/components/select-roles-page.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';

export function Component() {
  useDocumentTitle('Activate Security Agents');
  return <SelectRolesPage />;
}
