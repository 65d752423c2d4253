// The selection on /dashboard/select-roles: starts from the navigation state or, for a visitor coming back
// from /auth, from session storage (selectedAgentRoles). Once signed in, the stored copy is consumed and the
// selection lives in the page's history entry, so a reload or Back keeps it and nothing is left pending.
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

import { useAuth } from '../../../lib/auth/auth-context.ts';
import { clearSelectedRoles, readSelectedRoles, toggledRole } from './selected-roles.ts';

export interface RoleSelection {
  selected: ReadonlySet<string>;
  toggle: (roleId: string) => void;
}

export function useRoleSelection(): RoleSelection {
  const location = useLocation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const [selected, setSelected] = useState<ReadonlySet<string>>(
    () => new Set(readSelectedRoles(location.state)),
  );

  useEffect(() => {
    if (user) {
      clearSelectedRoles();
    }
  }, [user]);

  const roles = [...selected];
  const inState = readSelectedRoles(location.state, { storage: false });
  const inSync = inState.length === roles.length && roles.every((id) => inState.includes(id));
  useEffect(() => {
    if (!inSync) {
      void navigate(location.pathname, { replace: true, state: { selectedRoles: roles } });
    }
    // roles is derived from selected; inSync decides whether the history entry needs the new list.
  }, [inSync, navigate, location.pathname]);

  const toggle = (roleId: string) => setSelected((current) => toggledRole(current, roleId));
  return { selected, toggle };
}
