import { createStore } from 'zustand/vanilla';

/** Places in the shell where the wallet island renders (through portals) once it is loaded. */
export const walletSlots = createStore<{ header?: HTMLElement | null; notices?: HTMLElement | null }>()(() => ({}));
