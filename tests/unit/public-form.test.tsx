// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { isPublicForm, PublicForm } from '../../src/runtime/pages/PublicForm';
import { needsHeavyInputs } from '../../src/runtime/pages/formInputs';
import { getForm } from '../../src/schema/registry';
import { json, useAntdDom } from './dom';
import { fillLogin, loginButton, loginFormChecks, stubFetch, stubFieldErrorThenSuccess } from './login-form';

// The sign-in and set-password pages draw their form schema with antd Form (PublicForm) instead of
// Formily; these are the checks form-page.test.tsx makes for FormPage, on PublicForm.

useAntdDom();

const renderLogin = (onSubmitted: (data: unknown) => void) =>
  render(<MemoryRouter><PublicForm schema={getForm('login')} onSubmitted={onSubmitted} /></MemoryRouter>);

describe('PublicForm', () => {
  loginFormChecks(renderLogin);

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

  it('shows the required messages of the entity rules in Chinese', async () => {
    const fetchMock = stubFetch();
    renderLogin(() => {});
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByText('请填写手机号')).toBeTruthy());
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('puts a gateway field error on its field with the label in the summary, clears it on edit, and submits again', async () => {
    const fetchMock = stubFieldErrorThenSuccess();
    const onSubmitted = vi.fn();
    renderLogin(onSubmitted);
    fillLogin('13800000001', 'demo1234');
    const phone = screen.getByPlaceholderText('请输入手机号');
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('该手机号未注册账号'));
    expect(screen.getByRole('alert').textContent).not.toContain('手机号：该手机号'); // the message names its field already
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
    await waitFor(() => expect(screen.getByText('密码需同时包含字母和数字')).toBeTruthy(), { timeout: 15000 });
    fireEvent.change(password, { target: { value: 'abc12345' } });
    fireEvent.change(confirm, { target: { value: 'abc12346' } });
    submit();
    await waitFor(() => expect(screen.getByText('两次输入的密码不一致')).toBeTruthy(), { timeout: 15000 });
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(confirm, { target: { value: 'abc12345' } });
    submit();
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledTimes(1), { timeout: 15000 });
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toContain('/api/auth/set-password');
    const sent = JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>;
    expect(sent).toMatchObject({ phone: '13800000000', code: '123456', password: 'abc12345' });
    expect(Object.keys(sent).sort()).toEqual(['code', 'password', 'phone']);
  });
});
