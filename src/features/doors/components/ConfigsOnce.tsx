import { Button, Notice, useToast } from '@/ui/index.ts';
import type { ConfigBlock } from '../model/configs.ts';

/** The tool's configurations with the new key, each ready to copy; shown once, then hidden for good. */
export function ConfigsOnce({ label, blocks, onDone }: { label: string; blocks: ConfigBlock[]; onDone: () => void }) {
  const { toast } = useToast();
  const copy = (block: ConfigBlock) =>
    void navigator.clipboard
      ?.writeText(block.text)
      .then(() => toast({ tone: 'success', title: `Copied the ${block.title}` }))
      .catch(() => toast({ tone: 'error', title: 'Could not copy', description: 'Select the text and copy it yourself.' }));
  return (
    <section aria-label={`Configuration for “${label}”`} className="space-y-3">
      <Notice tone="warning" title="Copy it now: the secret is not shown again">
        Keep it like a password. Revoking the key (Settings) ends it at once.
      </Notice>
      {blocks.map((block) => (
        <div key={block.id} className="space-y-1">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h4 className="font-medium">{block.title}</h4>
            <Button size="sm" variant="secondary" onClick={() => copy(block)}>
              Copy the {block.title}
            </Button>
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-400">{block.where}</p>
          <textarea
            readOnly
            aria-label={block.title}
            value={block.text}
            rows={Math.min(24, block.text.split('\n').length)}
            className="w-full rounded-lg border border-slate-300 bg-white p-2 font-mono text-xs dark:border-slate-600 dark:bg-slate-900"
            onFocus={(e) => e.target.select()}
          />
        </div>
      ))}
      <Button onClick={onDone}>Done: hide the secret</Button>
    </section>
  );
}
