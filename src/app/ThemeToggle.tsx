import { IconButton } from '@/ui/index.ts';
import { useTheme } from '@/ui/theme.tsx';

/**
 * The theme switch: a whole button with a drawn icon (a text glyph such as ☾ drew a thin crescent at the header's
 * end that read as a control cut off), outlined like its neighbours, and never shrunk by a crowded header.
 */
export function ThemeToggle() {
  const { theme, setChoice } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <IconButton label={`Switch to ${next} theme`} variant="secondary" className="shrink-0" onClick={() => setChoice(next)}>
      <svg aria-hidden="true" className="size-[18px] shrink-0" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        {theme === 'dark' ? (
          <>
            <circle cx="12" cy="12" r="4" />
            <path d="M12 2v2M12 20v2M4.93 4.93l1.41 1.41M17.66 17.66l1.41 1.41M2 12h2M20 12h2M4.93 19.07l1.41-1.41M17.66 6.34l1.41-1.41" />
          </>
        ) : (
          <path d="M21 12.79A9 9 0 1 1 11.21 3 7 7 0 0 0 21 12.79z" />
        )}
      </svg>
    </IconButton>
  );
}
