// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { isPublicForm, PublicForm } from '../../src/runtime/pages/PublicForm';
import { needsHeavyInputs } from '../../src/runtime/pages/formInputs';
import { getForm } from '../../src/schema/registry';

// The sign-in and set-password pages draw their form schema with antd Form (PublicForm) instead of
// Formily; these are the checks form-page.test.tsx makes for FormPage, on PublicForm.

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

const loginButton = () => screen.getByRole('button', { name: /登\s*录/ });

describe('PublicForm', () => {
  it('draws sign-in and set-password, and leaves forms with other inputs to FormPage', () => {
    expect(isPublicForm(getForm('login'))).toBe(true);
    expect(isPublicForm(getForm('set-password'))).toBe(true);
    expect(isPublicForm(getForm('insure-roster'))).toBe(false);
  });

  it('only forms with a roster, dates or numbers load the heavy inputs chunk', () => {
    expect(needsHeavyInputs(getForm('login').fields)).toBe(false);
    expect(needsHeavyInputs(getForm('set-password').fields)).toBe(false);
    expect(needsHeavyInputs(getForm('insure-roster').fields)).toBe(true);
  });

  it('blocks a malformed phone number before anything is sent', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(<MemoryRouter><PublicForm schema={getForm('login')} onSubmitted={() => {}} /></MemoryRouter>);
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '12345' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'demo1234' } });
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByText('请输入正确的 11 位手机号')).toBeTruthy());
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the required messages of the entity rules in Chinese', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(<MemoryRouter><PublicForm schema={getForm('login')} onSubmitted={() => {}} /></MemoryRouter>);
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByText('请填写手机号')).toBeTruthy());
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the values and shows the gateway message on failure, keeping what was typed', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(401, { code: 40100, message: '手机号或密码错误' }));
    vi.stubGlobal('fetch', fetchMock);
    const onSubmitted = vi.fn();
    render(<MemoryRouter><PublicForm schema={getForm('login')} onSubmitted={onSubmitted} /></MemoryRouter>);
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800000000' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'bad-pass1' } });
    fireEvent.click(loginButton());
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
    render(<MemoryRouter><PublicForm schema={getForm('login')} onSubmitted={onSubmitted} /></MemoryRouter>);
    const phone = screen.getByPlaceholderText('请输入手机号');
    fireEvent.change(phone, { target: { value: '13800000001' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'demo1234' } });
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('手机号：该手机号未注册账号'));
    // on the field itself (exact text), not only in the summary
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')?.textContent).toBe('该手机号未注册账号'));
    fireEvent.change(phone, { target: { value: '13800000000' } });
    await waitFor(() => expect(screen.queryByText('该手机号未注册账号')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(loginButton());
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledTimes(1));
    expect(onSubmitted.mock.calls[0][0]).toEqual({ token: 't' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('sends one Idempotency-Key per submit: the same content again reuses it, edited content gets a new one', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(401, { code: 40100, message: '手机号或密码错误' }));
    vi.stubGlobal('fetch', fetchMock);
    render(<MemoryRouter><PublicForm schema={getForm('login')} onSubmitted={vi.fn()} /></MemoryRouter>);
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800000000' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'bad-pass1' } });
    const keyOf = (i: number) => new Headers((fetchMock.mock.calls[i][1] as RequestInit).headers).get('idempotency-key');
    fireEvent.click(loginButton());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByRole('alert')).toBeTruthy());
    fireEvent.click(loginButton());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(keyOf(0)).toBeTruthy();
    expect(keyOf(1)).toBe(keyOf(0));
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'bad-pass2' } });
    fireEvent.click(loginButton());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect(keyOf(2)).toBeTruthy();
    expect(keyOf(2)).not.toBe(keyOf(0));
  });

  it('set-password: checks the new password rule and the confirmation, and sends without the confirmation', async () => {
    const fetchMock = vi.fn().mockResolvedValue(json(200, { code: 0, data: null, message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    const onSubmitted = vi.fn();
    render(<MemoryRouter><PublicForm schema={getForm('set-password')} onSubmitted={onSubmitted} /></MemoryRouter>);
    const submit = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    const [password, confirm] = Array.from(document.querySelectorAll<HTMLInputElement>('input[type="password"]'));
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800000000' } });
    fireEvent.change(screen.getByPlaceholderText('请输入短信验证码'), { target: { value: '123456' } });
    fireEvent.change(password, { target: { value: 'onlyletters' } });
    fireEvent.change(confirm, { target: { value: 'onlyletters' } });
    submit();
    await waitFor(() => expect(screen.getByText('密码需同时包含字母和数字')).toBeTruthy());
    fireEvent.change(password, { target: { value: 'abc12345' } });
    fireEvent.change(confirm, { target: { value: 'abc12346' } });
    submit();
    await waitFor(() => expect(screen.getByText('两次输入的密码不一致')).toBeTruthy());
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(confirm, { target: { value: 'abc12345' } });
    submit();
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toContain('/api/auth/set-password');
    const sent = JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>;
    expect(sent).toMatchObject({ phone: '13800000000', code: '123456', password: 'abc12345' });
    expect(Object.keys(sent).sort()).toEqual(['code', 'password', 'phone']);
  });
});
