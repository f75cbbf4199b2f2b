import type { Hono } from 'hono';

// Placeholder: GET /v-next/openapi.json lands here.
export function mountDocs(_app: Hono): void {}
