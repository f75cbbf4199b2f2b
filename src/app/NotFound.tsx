import { Link } from 'react-router';
import { EmptyState } from '@/ui/index.ts';

export default function NotFound() {
  return (
    <EmptyState
      title="This page does not exist"
      description="The address may be mistyped, or the page has moved."
      action={
        <Link to="/" className="font-medium text-brand-700 underline dark:text-brand-300">
          Go to search
        </Link>
      }
    />
  );
}
