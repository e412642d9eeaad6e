// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { FormPage } from '../../src/runtime/pages/FormPage';
import { getForm } from '../../src/schema/registry';

beforeAll(() => {
  // antd's responsive helpers need matchMedia, which jsdom lacks.
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({ matches: false, media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false }),
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('FormPage from the login schema', () => {
  it('blocks a malformed phone number before anything is sent', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(<MemoryRouter><FormPage schema={getForm('login')} bare onSubmitted={() => {}} /></MemoryRouter>);
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '12345' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'demo1234' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(screen.getByText('请输入正确的 11 位手机号')).toBeTruthy());
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the values and shows the gateway message on failure, keeping what was typed', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(401, { code: 40100, message: '手机号或密码错误' }));
    vi.stubGlobal('fetch', fetchMock);
    const onSubmitted = vi.fn();
    render(<MemoryRouter><FormPage schema={getForm('login')} bare onSubmitted={onSubmitted} /></MemoryRouter>);
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800000000' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'bad-pass1' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('手机号或密码错误'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toContain('/api/auth/login');
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ phone: '13800000000', password: 'bad-pass1' });
    expect(onSubmitted).not.toHaveBeenCalled();
    expect((screen.getByPlaceholderText('请输入手机号') as HTMLInputElement).value).toBe('13800000000');
  });

  it('puts a gateway field error on its field with the label in the summary, clears it on edit, and submits again', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(400, { code: 40000, message: '填写内容有误，请按提示修改', errors: [{ field: 'phone', message: '该手机号未注册账号' }] }))
      .mockResolvedValueOnce(json(200, { code: 0, data: { token: 't' }, message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    const onSubmitted = vi.fn();
    render(<MemoryRouter><FormPage schema={getForm('login')} bare onSubmitted={onSubmitted} /></MemoryRouter>);
    const phone = screen.getByPlaceholderText('请输入手机号');
    fireEvent.change(phone, { target: { value: '13800000001' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'demo1234' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('手机号：该手机号未注册账号'));
    expect(screen.getByRole('alert').textContent).not.toContain('phone：');
    // on the field itself (exact text), not only in the summary
    await waitFor(() => expect(document.querySelector('.ant-formily-item-error-help')?.textContent).toBe('该手机号未注册账号'));
    fireEvent.change(phone, { target: { value: '13800000000' } });
    await waitFor(() => expect(screen.queryByText('该手机号未注册账号')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('sends one Idempotency-Key per submit: the same content again reuses it, edited content gets a new one', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(401, { code: 40100, message: '手机号或密码错误' }));
    vi.stubGlobal('fetch', fetchMock);
    render(<MemoryRouter><FormPage schema={getForm('login')} bare onSubmitted={vi.fn()} /></MemoryRouter>);
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800000000' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'bad-pass1' } });
    const submit = () => fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    const keyOf = (i: number) => new Headers((fetchMock.mock.calls[i][1] as RequestInit).headers).get('idempotency-key');
    submit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByRole('alert')).toBeTruthy());
    submit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(keyOf(0)).toBeTruthy();
    expect(keyOf(1)).toBe(keyOf(0));
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'bad-pass2' } });
    submit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect(keyOf(2)).toBeTruthy();
    expect(keyOf(2)).not.toBe(keyOf(0));
  });

  it('shows required messages in Chinese, never Formily\'s English default', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(<MemoryRouter><FormPage schema={getForm('login')} bare onSubmitted={() => {}} /></MemoryRouter>);
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(screen.getByText('请填写手机号')).toBeTruthy());
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(document.body.textContent).not.toContain('The field value is required');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
