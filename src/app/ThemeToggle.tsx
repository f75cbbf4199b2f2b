import { IconButton } from '@/ui/index.ts';
import { useTheme } from '@/ui/theme.tsx';

export function ThemeToggle() {
  const { theme, setChoice } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <IconButton label={`Switch to ${next} theme`} onClick={() => setChoice(next)}>
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
    </IconButton>
  );
}
