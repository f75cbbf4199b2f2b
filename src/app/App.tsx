import { RouterProvider } from 'react-router';
import { Providers } from './providers.tsx';
import { createRouter } from './routes.tsx';

const router = createRouter();

export function App() {
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
