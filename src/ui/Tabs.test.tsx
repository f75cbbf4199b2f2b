// @vitest-environment jsdom
import { lazy, useState, type ReactElement } from 'react';
import { afterEach, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tabs } from './Tabs.tsx';

afterEach(cleanup);

it('a tab whose code is still loading shows a spinner in its panel while the tabs and the rest stay on screen', async () => {
  let arrive: (module: { default: () => ReactElement }) => void = () => {};
  const Later = lazy(() => new Promise<{ default: () => ReactElement }>((resolve) => (arrive = resolve)));
  function Page() {
    const [selected, setSelected] = useState('first');
    return (
      <div>
        <h1>The page</h1>
        <Tabs
          label="Sections"
          selected={selected}
          onSelect={setSelected}
          items={[
            { id: 'first', label: 'First', content: <p>First content</p> },
            { id: 'later', label: 'Renewal', content: <Later /> },
          ]}
        />
      </div>
    );
  }
  render(<Page />);
  await userEvent.click(screen.getByRole('tab', { name: 'Renewal' }));
  expect(screen.getByRole('tab', { name: 'Renewal' }).getAttribute('aria-selected')).toBe('true');
  expect(screen.getByRole('status').textContent).toBe('Loading Renewal');
  expect(screen.getByRole('heading', { name: 'The page' })).toBeTruthy();
  arrive({ default: () => <p>Renewal content</p> });
  expect(await screen.findByText('Renewal content')).toBeTruthy();
  expect(screen.queryByRole('status')).toBeNull();
});
