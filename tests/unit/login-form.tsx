import { expect, it, vi, type Mock } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { json } from './dom';

/** The sign-in form's submit button. */
export const loginButton = () => screen.getByRole('button', { name: /登\s*录/ });

/** Types a phone number and a password into the sign-in form. */
export function fillLogin(phone: string, password: string): void {
  fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: phone } });
  fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: password } });
}

/** fetch replaced by a mock resolving every request to `res` (or to nothing); returns the mock. */
export function stubFetch(res?: Response): Mock {
  const fetchMock = res ? vi.fn().mockResolvedValue(res) : vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** fetch answering the first sign-in with a field error on the phone number, the second with success. */
export function stubFieldErrorThenSuccess(): Mock {
  const fetchMock = vi
    .fn()
    .mockResolvedValueOnce(json(400, { code: 40000, message: '填写内容有误，请按提示修改', errors: [{ field: 'phone', message: '该手机号未注册账号' }] }))
    .mockResolvedValueOnce(json(200, { code: 0, data: { token: 't' }, message: 'ok' }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/**
 * The checks the sign-in form passes whichever component draws it (FormPage with Formily, PublicForm
 * with antd Form): `renderLogin` renders the login schema with the given onSubmitted.
 */
export function loginFormChecks(renderLogin: (onSubmitted: (data: unknown) => void) => void): void {
  it('blocks a malformed phone number before anything is sent', async () => {
    const fetchMock = stubFetch();
    renderLogin(() => {});
    fillLogin('12345', 'demo1234');
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByText('请输入正确的 11 位手机号')).toBeTruthy());
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the values and shows the gateway message on failure, keeping what was typed', async () => {
    const fetchMock = stubFetch(json(401, { code: 40100, message: '手机号或密码错误' }));
    const onSubmitted = vi.fn();
    renderLogin(onSubmitted);
    fillLogin('13800000000', 'bad-pass1');
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('手机号或密码错误'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toContain('/api/auth/login');
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ phone: '13800000000', password: 'bad-pass1' });
    expect(onSubmitted).not.toHaveBeenCalled();
    expect((screen.getByPlaceholderText('请输入手机号') as HTMLInputElement).value).toBe('13800000000');
  });

  it('sends one Idempotency-Key per submit: the same content again reuses it, edited content gets a new one', async () => {
    const fetchMock = stubFetch(json(401, { code: 40100, message: '手机号或密码错误' }));
    renderLogin(vi.fn());
    fillLogin('13800000000', 'bad-pass1');
    const submit = () => fireEvent.click(loginButton());
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
}
