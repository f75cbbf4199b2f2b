import { Badge } from '@/ui/index.ts';
import { statusWords } from '../order-view.ts';

export function StatusBadge({ status }: { status: string }) {
  const { label, tone } = statusWords(status);
  return <Badge tone={tone}>{label}</Badge>;
}
