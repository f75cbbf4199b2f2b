import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { decodeAgentRequest } from '#core/agent-sign.ts';
import { noticeOf, type SignedOperationId, type SignedRequest } from '#core/operations/index.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { useSignedCall } from '@/lib/signing/use-signed-call.ts';
import { Button, Card, Notice, PageHeader } from '@/ui/index.ts';
import { describeAgentRequest } from './model/describe-request.ts';

type State = { step: 'ready' } | { step: 'signing' } | { step: 'done' } | { step: 'declined' } | { step: 'failed'; title: string; description?: string };

/**
 * /agent-sign#… — a change an AI agent prepared through the MCP server (prepare_signature) for the person's wallet:
 * said in words first, then signed by the wallet and sent, marked as prepared through MCP in the zone's history.
 * The change travels in the link's fragment, which no server sees; it is checked with the operation's own schema.
 */
export default function AgentSignPage() {
  const { hash } = useLocation();
  const decoded = useMemo(() => decodeAgentRequest(hash), [hash]);
  const { signAndCall } = useSignedCall();
  const [state, setState] = useState<State>({ step: 'ready' });
  const header = <PageHeader title="Sign a change an agent prepared" description="An AI agent asked for this change. Nothing happens unless your wallet signs it." />;

  if (!decoded.ok) {
    return (
      <div className="mx-auto max-w-3xl">
        {header}
        <Notice tone="danger" title="This link holds no change to sign">
          {decoded.problem}
        </Notice>
      </div>
    );
  }
  const { request } = decoded;
  const id = request.operationId as SignedOperationId;
  const words = describeAgentRequest(request);
  const notice = noticeOf(id, request.payload as never) ?? id;

  async function sign() {
    setState({ step: 'signing' });
    try {
      await signAndCall(id, request.payload as SignedRequest<typeof id>, { client: 'mcp' });
      setState({ step: 'done' });
    } catch (error) {
      if (error instanceof SignatureRejectedError) return setState({ step: 'declined' });
      const explained = explainError(error, { domain: words.zone ?? undefined });
      setState({ step: 'failed', title: explained.title, description: explained.description });
    }
  }

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      {header}
      <Card className="space-y-3">
        <section aria-label="The change">
          <h2 className="font-semibold">{words.title}</h2>
          {words.zone ? <p className="text-sm text-slate-600 dark:text-slate-400">Domain: {words.zone}</p> : null}
          <ul className="mt-2 list-disc pl-5 text-sm">
            {words.lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </section>
        {state.step === 'done' ? null : <SigningNotice lines={[notice]} />}
        {state.step === 'done' ? (
          <Notice tone="success" title="Signed and applied">
            It is in the domain’s history, marked as prepared through MCP.{' '}
            {words.zone ? (
              <Link className="underline" to={`/domains/${words.zone}`}>
                Open {words.zone}
              </Link>
            ) : null}
          </Notice>
        ) : (
          <Button onClick={() => void sign()} disabled={state.step === 'signing'}>
            {state.step === 'signing' ? 'Waiting for the wallet…' : 'Sign and apply'}
          </Button>
        )}
        {state.step === 'declined' ? <Notice tone="warning" title="You declined the signature; nothing changed." /> : null}
        {state.step === 'failed' ? (
          <Notice tone="danger" title={state.title}>
            {state.description}
          </Notice>
        ) : null}
      </Card>
    </div>
  );
}
