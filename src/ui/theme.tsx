import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { readStored, writeStored, STORAGE_KEYS } from '../lib/settings/storage.ts';

export type ThemeChoice = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

const ThemeContext = createContext<{ choice: ThemeChoice; theme: Theme; setChoice: (c: ThemeChoice) => void } | null>(null);

function systemTheme(): Theme {
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function storedChoice(): ThemeChoice {
  return readStored<ThemeChoice>(STORAGE_KEYS.theme) ?? 'system';
}

/** The theme the page starts in: the stored choice, or the system's. */
export function startingTheme(): Theme {
  const choice = storedChoice();
  return choice === 'system' ? systemTheme() : choice;
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoiceState] = useState<ThemeChoice>(storedChoice);
  const [system, setSystem] = useState<Theme>(systemTheme);
  useEffect(() => {
    const media = matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setSystem(media.matches ? 'dark' : 'light');
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  const theme = choice === 'system' ? system : choice;
  useEffect(() => {
    document.documentElement.classList.toggle('dark', theme === 'dark');
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  const setChoice = useCallback((c: ThemeChoice) => {
    writeStored(STORAGE_KEYS.theme, c);
    setChoiceState(c);
  }, []);
  const value = useMemo(() => ({ choice, theme, setChoice }), [choice, theme, setChoice]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme() {
  const context = useContext(ThemeContext);
  if (!context) throw new Error('useTheme needs <ThemeProvider>');
  return context;
}
