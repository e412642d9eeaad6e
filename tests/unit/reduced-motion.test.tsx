// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { useContext } from 'react';
import { render, screen } from '@testing-library/react';
import { Context as MotionContext } from 'rc-motion/lib/context';
import { BasicLayout } from '../../src/runtime/layouts/BasicLayout';
import { useAntdDom } from './dom';

useAntdDom();

/** Shows what antd's animated components read: rc-motion's context (motion false: no animation). */
function MotionProbe() {
  const { motion } = useContext(MotionContext);
  return <span data-testid="motion">{String(motion)}</span>;
}

/** matchMedia answering the reduce-motion query as the system setting says. */
function systemPrefers(reduce: boolean) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({ matches: reduce && query === '(prefers-reduced-motion: reduce)', media: query, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {} }),
  });
}

describe('the console and the system setting "reduce motion"', () => {
  it('turns antd animations off when the user asked for less motion', () => {
    systemPrefers(true);
    render(<BasicLayout><MotionProbe /></BasicLayout>);
    expect(screen.getByTestId('motion').textContent).toBe('false');
  });

  it('keeps them otherwise', () => {
    systemPrefers(false);
    render(<BasicLayout><MotionProbe /></BasicLayout>);
    expect(screen.getByTestId('motion').textContent).toBe('true');
  });
});
