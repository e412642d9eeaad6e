// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ListLink, RowLinksProvider } from '../../src/runtime/table/ListLink';
import { useAntdDom } from './dom';

useAntdDom();

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

const page = (basename?: string, at = '/orders?current=2') =>
  render(
    <MemoryRouter basename={basename} initialEntries={[`${basename ?? ''}${at}`]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <Where />
              <RowLinksProvider>
                <ListLink to="/orders/7">OD7</ListLink>
                <ListLink to="/orders?id=7">抽屉</ListLink>
              </RowLinksProvider>
              <ListLink to="/orders/8">outside</ListLink>
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );

describe("a list's row links (src/runtime/table/ListLink.tsx)", () => {
  it('are anchors to the target, and one that only adds a query keeps the list state of the URL', () => {
    page();
    expect(screen.getByRole('link', { name: 'OD7' }).getAttribute('href')).toBe('/orders/7');
    expect(screen.getByRole('link', { name: '抽屉' }).getAttribute('href')).toBe('/orders?current=2&id=7');
    // Outside the provider the router's own Link draws the same href.
    expect(screen.getByRole('link', { name: 'outside' }).getAttribute('href')).toBe('/orders/8');
  });

  it('navigate inside the console on a plain click, and leave a click with a modifier key to the browser', () => {
    page();
    expect(fireEvent.click(screen.getByRole('link', { name: 'OD7' }), { ctrlKey: true })).toBe(true);
    expect(screen.getByTestId('where').textContent).toBe('/orders?current=2');
    expect(fireEvent.click(screen.getByRole('link', { name: 'OD7' }))).toBe(false);
    expect(screen.getByTestId('where').textContent).toBe('/orders/7');
  });

  it('carry the base path in their href and navigate without it', () => {
    page('/console');
    const link = screen.getByRole('link', { name: 'OD7' });
    expect(link.getAttribute('href')).toBe('/console/orders/7');
    fireEvent.click(link);
    expect(screen.getByTestId('where').textContent).toBe('/orders/7');
  });
});
