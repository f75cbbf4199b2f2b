import { useState } from 'react';
import { explainError } from './explain.ts';
import { useToast } from '@/ui/index.ts';
import { SignatureRejectedError } from '../signing/errors.ts';

/**
 * A panel's signed write, started from its confirm dialog: the dialog closes however it ends, a success is a toast,
 * a declined signature is remembered for the panel to say so, and a refusal is explained in a toast.
 */
export function useConfirmedWrite(context: { domain: string; address?: string }) {
  const { toast } = useToast();
  const [declined, setDeclined] = useState(false);
  async function run(write: () => Promise<unknown>, options: { success: string; close: () => void }): Promise<void> {
    setDeclined(false);
    try {
      await write();
      toast({ tone: 'success', title: options.success });
    } catch (error) {
      if (error instanceof SignatureRejectedError) setDeclined(true);
      else {
        const explained = explainError(error, context);
        toast({ tone: 'error', title: explained.title, description: explained.description });
      }
    } finally {
      options.close();
    }
  }
  return { declined, run };
}
