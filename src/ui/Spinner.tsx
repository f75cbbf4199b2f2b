import { cx } from './cx.ts';

export function Spinner({ size = 'md', label = 'Loading' }: { size?: 'sm' | 'md' | 'lg'; label?: string }) {
  const px = { sm: 'h-4 w-4', md: 'h-6 w-6', lg: 'h-10 w-10' }[size];
  return (
    <span role={label ? 'status' : undefined} className="inline-flex items-center">
      <span aria-hidden="true" className={cx(px, 'animate-spin rounded-full border-2 border-current border-t-transparent')} />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
