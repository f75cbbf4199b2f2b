import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './App.tsx';
import { PRERENDERED_PATH } from './hydration.ts';

/**
 * The home page's markup, rendered at build time (scripts/prerender-plugin.ts) from the same components the page then
 * hydrates. It waits for every lazy part the page shows, so no boundary is left for the client to render afresh; and
 * it renders while this module loads (top-level await), since the build's module runner closes once the import is done
 * and a lazy part loaded after that would find it closed.
 */
function AtHome({ children }: { children: ReactNode }) {
  return <StaticRouter location={PRERENDERED_PATH}>{children}</StaticRouter>;
}

const { prelude } = await prerender(<App Router={AtHome} />);
export const homeMarkup: string = await new Response(prelude).text();
