// Light, dark or system theme, kept in local storage under ui-theme (docs/product.md §4); dark by default.
import { type ReactNode, useEffect, useMemo, useState } from 'react';

import { STORAGE_KEYS } from '../../../../shared/constants.ts';
import { isTheme, type Theme, ThemeContext } from './theme-context.ts';

function readTheme(fallback: Theme): Theme {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.theme);
    return isTheme(stored) ? stored : fallback;
  } catch {
    return fallback;
  }
}

export function ThemeProvider({
  children,
  defaultTheme = 'dark',
}: {
  children: ReactNode;
  defaultTheme?: Theme;
}) {
  const [theme, setThemeState] = useState<Theme>(() => readTheme(defaultTheme));

  useEffect(() => {
    const root = document.documentElement;
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const resolved = theme === 'system' ? (media.matches ? 'dark' : 'light') : theme;
      root.classList.remove('light', 'dark');
      root.classList.add(resolved);
    };
    apply();
    if (theme !== 'system') {
      return undefined;
    }
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);

  const value = useMemo(
    () => ({
      theme,
      setTheme(next: Theme) {
        try {
          localStorage.setItem(STORAGE_KEYS.theme, next);
        } catch {
          // Storage may be unavailable (private mode); the choice still applies for this visit.
        }
        setThemeState(next);
      },
    }),
    [theme],
  );

  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}
