import './app/styles.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { visitMatchesPrerender } from './app/hydration.ts';

const root = document.getElementById('root')!;
// The built index.html holds the home page pre-rendered (scripts/prerender-plugin.ts). Hydrating keeps that first
// paint; where this visit would render something else, React renders afresh over it. Hydrating as a transition lets
// React yield to the browser every few milliseconds, so taking the page over is no long task that input waits behind.
if (root.hasChildNodes() && visitMatchesPrerender()) startTransition(() => void hydrateRoot(root, <App />));
else createRoot(root).render(<App />);
